import { ledgerInMemory, type LedgerInMemory } from '../../../../test/support/in-memory/ledger-in-memory.kit';

describe('CreatePayoutUseCase (in memory)', () => {
  let ledger: LedgerInMemory;
  let org: { organizationId: string; accountId: string };

  beforeEach(async () => {
    ledger = ledgerInMemory({ payoutFees: 'CRYPTO:USDC=0.5' });
    org = await ledger.organization({ assets: ['USDC'] });
    await ledger.creditFaucet.execute({ ...org, asset: 'USDC', amount: '100', chainName: 'BASE_SEPOLIA' });
  });

  const payout = (amount: string) =>
    ledger.createPayout.execute({ ...org, rail: 'CRYPTO', asset: 'USDC', amount, beneficiaryId: 'bene_1', chainName: 'BASE_SEPOLIA', reference: null });

  it('creates an EXPECTED payout holding amount + fee at once, with no event', async () => {
    const events = ledger.outbox.events.length;
    const transaction = await payout('60');
    expect(transaction).toMatchObject({ type: 'CRYPTO_PAYOUT', status: 'EXPECTED', amount: '60.000000', fee: '0.500000', feeAsset: 'USDC', beneficiaryId: 'bene_1' });
    expect(ledger.journal.balanceOf(org.accountId, 'USDC')).toBe('39.5');
    expect(ledger.journal.platformBalance('payouts_in_flight', 'USDC')).toBe('60.5');
    expect(ledger.outbox.events).toHaveLength(events);
  });

  it('refuses with insufficient_funds when amount + fee is more than the balance, and holds nothing', async () => {
    await expect(payout('99.6')).rejects.toMatchObject({ code: 'insufficient_funds' });
    expect(ledger.journal.balanceOf(org.accountId, 'USDC')).toBe('100');
    await expect(payout('99.5')).resolves.toMatchObject({ status: 'EXPECTED' });
    expect(ledger.journal.balanceOf(org.accountId, 'USDC')).toBe('0');
  });

  it('refuses a crypto asset on the fiat rail, an unverified organization and another organization’s account', async () => {
    await expect(ledger.createPayout.execute({ ...org, rail: 'FIAT', asset: 'USDC', amount: '1', beneficiaryId: 'b', chainName: null, reference: null })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    const other = await ledger.organization();
    await expect(ledger.createPayout.execute({ ...org, accountId: other.accountId, rail: 'CRYPTO', asset: 'USDC', amount: '1', beneficiaryId: 'b', chainName: null, reference: null })).rejects.toMatchObject({
      code: 'account_not_found',
    });
    ledger.directory.set({ organizationId: org.organizationId, verificationStatus: 'PENDING' });
    await expect(payout('1')).rejects.toMatchObject({ code: 'verification_required' });
  });
});
