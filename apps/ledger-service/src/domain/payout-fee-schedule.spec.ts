import { PayoutFeeSchedule } from './payout-fee-schedule';

describe('PayoutFeeSchedule', () => {
  it('reads RAIL:ASSET=AMOUNT pairs and charges nothing for a pair it does not list', () => {
    const schedule = PayoutFeeSchedule.parse('FIAT:USD=1.50, CRYPTO:USDC=0.25');
    expect(schedule.feeFor('FIAT', 'USD').toFixed()).toBe('1.5');
    expect(schedule.feeFor('CRYPTO', 'USDC').toFixed()).toBe('0.25');
    expect(schedule.feeFor('FIAT', 'EUR').toFixed()).toBe('0');
    expect(PayoutFeeSchedule.parse(PayoutFeeSchedule.DEFAULT).list().length).toBeGreaterThan(0);
  });

  it.each([
    ['FIAT:USD', 'is not RAIL:ASSET=AMOUNT'],
    ['WIRE:USD=1', 'unknown rail'],
    ['FIAT:XYZ=1', 'not in the asset catalog'],
    ['FIAT:USDC=1', 'cannot be paid out on the FIAT rail'],
    ['FIAT:USD=1.001', "more decimals than USD's scale"],
    ['FIAT:USD=1,FIAT:USD=2', 'listed twice'],
    ['FIAT:USD=-1', 'is not RAIL:ASSET=AMOUNT'],
  ])('refuses %s at start', (text, problem) => {
    expect(() => PayoutFeeSchedule.parse(text)).toThrow(problem);
  });
});
