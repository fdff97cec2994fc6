import { ledgerInMemory, type LedgerInMemory } from '../../../../test/support/in-memory/ledger-in-memory.kit';

describe('AdvanceTransactionUseCase (in memory)', () => {
  let ledger: LedgerInMemory;
  let org: { organizationId: string; accountId: string };

  beforeEach(async () => {
    ledger = ledgerInMemory({ payoutFees: 'CRYPTO:USDC=1' });
    org = await ledger.organization({ assets: ['USDC'] });
    await ledger.creditFaucet.execute({ ...org, asset: 'USDC', amount: '50', chainName: 'BASE_SEPOLIA' });
  });

  const payout = () =>
    ledger.createPayout.execute({ ...org, rail: 'CRYPTO', asset: 'USDC', amount: '20', beneficiaryId: ledger.beneficiaries.crypto(org, { chainName: 'BASE_SEPOLIA' }), reference: null });
  const advance = (transactionId: string, action: 'lock' | 'complete' | 'decline' | 'refund', organizationId = org.organizationId) =>
    ledger.advanceTransaction.execute({ organizationId, transactionId, action });
  const statuses = () => ledger.outbox.dataOf('transaction.status.updated').map((data) => `${data.previous_status}→${data.status}:${data.role}`);

  it('drives a payout EXPECTED → LOCKED → COMPLETED → REFUNDED, one event per move, money moving as posted', async () => {
    const { transactionId } = await payout();
    expect(ledger.journal.balanceOf(org.accountId, 'USDC')).toBe('29');
    expect(await advance(transactionId, 'lock')).toMatchObject({ status: 'LOCKED' });
    expect(await advance(transactionId, 'complete')).toMatchObject({ status: 'COMPLETED' });
    expect(ledger.journal.platformBalance('fees_earned', 'USDC')).toBe('1');
    expect(await advance(transactionId, 'refund')).toMatchObject({ status: 'REFUNDED' });
    expect(ledger.journal.balanceOf(org.accountId, 'USDC')).toBe('50');
    expect(statuses()).toEqual(['EXPECTED→COMPLETED:RECEIVER', 'EXPECTED→LOCKED:SENDER', 'LOCKED→COMPLETED:SENDER', 'COMPLETED→REFUNDED:SENDER']);
    expect(ledger.journal.booksByAsset()).toEqual({ USDC: '0' });
  });

  it('a declined payout gives the hold back', async () => {
    const { transactionId } = await payout();
    expect(await advance(transactionId, 'decline')).toMatchObject({ status: 'DECLINED', failureReason: expect.any(String) });
    expect(ledger.journal.balanceOf(org.accountId, 'USDC')).toBe('50');
  });

  it('refuses an illegal move with invalid_request naming the current status, changing nothing', async () => {
    const [faucet] = [...ledger.transactions.transactions.values()];
    await expect(advance(faucet!.id, 'lock')).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('is COMPLETED') });
    const { transactionId } = await payout();
    await expect(advance(transactionId, 'complete')).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('is EXPECTED') });
    expect((await ledger.getTransaction.execute({ organizationId: org.organizationId, transactionId })).status).toBe('EXPECTED');
  });

  it('refunding a deposit already spent is insufficient_funds, and the deposit stays COMPLETED', async () => {
    const [faucet] = [...ledger.transactions.transactions.values()];
    await payout();
    await expect(advance(faucet!.id, 'refund')).rejects.toMatchObject({ code: 'insufficient_funds' });
    expect(ledger.journal.balanceOf(org.accountId, 'USDC')).toBe('29');
  });

  it('answers transaction_not_found for another organization’s transaction', async () => {
    const other = await ledger.organization();
    const { transactionId } = await payout();
    await expect(advance(transactionId, 'lock', other.organizationId)).rejects.toMatchObject({ code: 'transaction_not_found' });
  });

  it('does not exist outside the sandbox: not_found, nothing moved', async () => {
    const production = ledgerInMemory({ environment: 'production' });
    const client = await production.organization();
    await expect(production.advanceTransaction.execute({ ...client, transactionId: 'txn_ffffffffffffffffffffffffffffffff', action: 'complete' })).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('only in the sandbox'),
    });
    expect(production.outbox.events).toHaveLength(0);
  });
});
