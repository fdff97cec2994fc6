import { ledgerInMemory } from '../../../../test/support/in-memory/ledger-in-memory.kit';

describe('GetFeesUseCase (in memory)', () => {
  it('gives default pricing without a tier, and the tier’s spread and share with one, with the payout fee schedule', async () => {
    const ledger = ledgerInMemory({ payoutFees: 'FIAT:USD=1.5,CRYPTO:USDC=0.25' });
    const org = await ledger.organization();
    expect(await ledger.getFees.execute({ organizationId: org.organizationId })).toEqual({
      object: 'fees',
      organizationId: org.organizationId,
      tier: null,
      spreadBps: 100,
      referrerShareBps: 0,
      payoutFees: [
        { object: 'payout_fee', rail: 'FIAT', asset: 'USD', amount: '1.50' },
        { object: 'payout_fee', rail: 'CRYPTO', asset: 'USDC', amount: '0.250000' },
      ],
    });
    ledger.directory.setTier(org.organizationId, { key: 'vip', label: 'VIP', spreadBps: 30, referrerShareBps: 30 });
    expect(await ledger.getFees.execute({ organizationId: org.organizationId })).toMatchObject({ tier: { key: 'vip', label: 'VIP' }, spreadBps: 30, referrerShareBps: 30 });
  });
});
