import { ledgerInMemory } from '../../../../test/support/in-memory/ledger-in-memory.kit';

describe('ListAccountEntriesUseCase (in memory)', () => {
  it('lists the account’s lines newest first, signed, each with the balance it left', async () => {
    const ledger = ledgerInMemory({ payoutFees: 'CRYPTO:USDC=0.5' });
    const org = await ledger.organization({ assets: ['USDC'] });
    const credit = await ledger.creditFaucet.execute({ ...org, asset: 'USDC', amount: '10', chainName: 'TRON_NILE' });
    const payout = await ledger.createPayout.execute({ ...org, rail: 'CRYPTO', asset: 'USDC', amount: '4', beneficiaryId: ledger.beneficiaries.crypto(org), reference: null });
    const page = await ledger.listAccountEntries.execute({ ...org, page: { limit: 1, cursor: null } });
    expect(page.data).toEqual([
      expect.objectContaining({ object: 'account_entry', transactionId: payout.transactionId, amount: '-4.500000', balanceAfter: '5.500000', asset: 'USDC' }),
    ]);
    const next = await ledger.listAccountEntries.execute({ ...org, page: { limit: 1, cursor: page.nextCursor } });
    expect(next.data).toEqual([expect.objectContaining({ transactionId: credit.transactionId, amount: '10.000000', balanceAfter: '10.000000' })]);
    expect(next.hasMore).toBe(false);
  });

  it('answers account_not_found for another organization’s account', async () => {
    const ledger = ledgerInMemory();
    const org = await ledger.organization();
    const other = await ledger.organization();
    await expect(ledger.listAccountEntries.execute({ organizationId: other.organizationId, accountId: org.accountId, page: { limit: 25, cursor: null } })).rejects.toMatchObject({
      code: 'account_not_found',
    });
  });
});
