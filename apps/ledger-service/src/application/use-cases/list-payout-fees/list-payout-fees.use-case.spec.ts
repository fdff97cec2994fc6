import { ledgerInMemory } from '../../../../test/support/in-memory/ledger-in-memory.kit';

describe('ListPayoutFeesUseCase (in memory)', () => {
  it('lists the payout fee schedule, each amount at its asset’s scale', async () => {
    const ledger = ledgerInMemory({ payoutFees: 'FIAT:USD=1.5,CRYPTO:USDC=0.25' });
    expect(await ledger.listPayoutFees.execute({})).toEqual([
      { object: 'payout_fee', rail: 'FIAT', asset: 'USD', amount: '1.50' },
      { object: 'payout_fee', rail: 'CRYPTO', asset: 'USDC', amount: '0.250000' },
    ]);
  });
});
