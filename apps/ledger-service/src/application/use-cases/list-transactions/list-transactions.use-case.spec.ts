import { ledgerInMemory, type LedgerInMemory } from '../../../../test/support/in-memory/ledger-in-memory.kit';

describe('ListTransactionsUseCase (in memory)', () => {
  let ledger: LedgerInMemory;
  let org: { organizationId: string; accountId: string };

  beforeEach(async () => {
    ledger = ledgerInMemory();
    org = await ledger.organization({ assets: ['USDC'] });
    for (const amount of ['1', '2', '3']) {
      ledger.clock.advance(1000);
      await ledger.creditFaucet.execute({ ...org, asset: 'USDC', amount, chainName: 'TRON_NILE' });
    }
    ledger.clock.advance(1000);
    await ledger.createPayout.execute({ ...org, rail: 'CRYPTO', asset: 'USDC', amount: '1', beneficiaryId: ledger.beneficiaries.crypto(org), reference: null });
  });

  const list = (filters: Record<string, string> = {}, limit = 25, cursor: string | null = null) =>
    ledger.listTransactions.execute({ organizationId: org.organizationId, page: { limit, cursor }, filters });

  it('lists newest first and pages with a cursor', async () => {
    const first = await list({}, 3);
    expect(first.data.map((t) => t.type)).toEqual(['CRYPTO_PAYOUT', 'CRYPTO_PAYIN', 'CRYPTO_PAYIN']);
    expect(first.hasMore).toBe(true);
    const second = await list({}, 3, first.nextCursor);
    expect(second.data.map((t) => t.amount)).toEqual(['1.000000']);
    expect(second.hasMore).toBe(false);
  });

  it('filters by type, status, account and creation time, and binds the cursor to the filters', async () => {
    expect((await list({ type: 'CRYPTO_PAYOUT' })).data).toHaveLength(1);
    expect((await list({ status: 'COMPLETED' })).data).toHaveLength(3);
    expect((await list({ accountId: 'acct_ffffffffffffffffffffffffffffffff' })).data).toHaveLength(0);
    const all = (await list()).data;
    const middle = all[2]!.createdAt;
    expect((await list({ createdAfter: middle })).data).toHaveLength(3);
    expect((await list({ createdBefore: middle })).data).toHaveLength(2);
    const page = await list({ status: 'COMPLETED' }, 1);
    await expect(list({}, 1, page.nextCursor)).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(list({ createdAfter: 'yesterday' })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('never lists another organization’s transactions', async () => {
    const other = await ledger.organization();
    expect((await ledger.listTransactions.execute({ organizationId: other.organizationId, page: { limit: 25, cursor: null }, filters: {} })).data).toEqual([]);
  });
});
