import { Big, decimalPlaces, isDecimalString, isValidAmount, normalizeAmount, roundDown, roundUp, toAmountString } from '../src/money';

describe('money', () => {
  it('accepts only positive decimal strings within the scale', () => {
    expect(isValidAmount('10.50', 2)).toBe(true);
    expect(isValidAmount('0.000001', 6)).toBe(true);
    for (const bad of ['10.505', '0', '0.00', '-1', '1e5', 'NaN', '', ' 1', '1.', '.5', '1,5']) {
      expect([bad, isValidAmount(bad, 2)]).toEqual([bad, false]);
    }
    expect(isValidAmount(10 as unknown, 2)).toBe(false);
    expect(isDecimalString('007.10')).toBe(true);
    expect(decimalPlaces('1.2300')).toBe(4);
  });

  it('rounds toward the platform at the asset scale, exactly', () => {
    expect(roundDown(new Big('1.239'), 2).toFixed()).toBe('1.23');
    expect(roundUp(new Big('1.231'), 2).toFixed()).toBe('1.24');
    // 0.1 + 0.2 is exact in decimal arithmetic.
    expect(new Big('0.1').plus('0.2').toFixed()).toBe('0.3');
    expect(toAmountString('12.5', 6)).toBe('12.500000');
    expect(toAmountString('123456789012345678.123456789012345678', 18)).toBe('123456789012345678.123456789012345678');
    expect(normalizeAmount('1.5000')).toBe('1.5');
  });
});
