import { IsString, validate } from 'class-validator';
import { AMOUNT_PATTERN, amountProblem, IsAmount } from './is-amount.decorator';

class Payout {
  @IsString()
  asset!: string;

  @IsAmount({ assetField: 'asset' })
  amount!: unknown;
}

class Quote {
  @IsString()
  fromAsset!: string;

  @IsString()
  toAsset!: string;

  @IsAmount({ assetField: 'fromAsset', optional: true })
  fromAmount?: unknown;

  @IsAmount({ assetField: 'toAsset', optional: true })
  toAmount?: unknown;
}

const FORM = 'must be a decimal string in major units such as "10.50": digits with an optional fraction, no sign or exponent';

async function messagesOf(target: object): Promise<Record<string, string>> {
  const errors = await validate(target);
  return Object.fromEntries(errors.map((error) => [error.property, Object.values(error.constraints ?? {})[0] ?? '']));
}

describe('amountProblem (api-decisions §1)', () => {
  it.each(['1', '10.5', '0.01', '125.50', '007.5', '999999999999999.99'])('accepts %j for USD', (value) => {
    expect(amountProblem(value, 'USD')).toBeNull();
  });

  it.each([
    ['a JSON number', 10],
    ['a fractional JSON number', 10.5],
    ['a negative', '-1'],
    ['an explicit plus sign', '+1'],
    ['an exponent', '1e5'],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
    ['an empty string', ''],
    ['a trailing dot', '1.'],
    ['a leading dot', '.5'],
    ['a comma', '1,5'],
    ['whitespace', ' 1'],
    ['hex', '0x10'],
    ['null', null],
    ['a boolean', true],
    ['an object', { value: '1' }],
  ])('refuses %s', (_label, value) => {
    expect(amountProblem(value, 'USD')).toBe(FORM);
  });

  it.each(['0', '0.00', '000.000000'])('refuses zero written as %j', (value) => {
    expect(amountProblem(value, 'USDC')).toBe('must be greater than zero');
  });

  it('honours the scale of the named asset', () => {
    expect(amountProblem('1.001', 'USD')).toBe('must have at most 2 decimal places for USD');
    expect(amountProblem('1.00', 'USD')).toBeNull();
    expect(amountProblem('0.000001', 'USDC')).toBeNull();
    expect(amountProblem('0.0000001', 'USDC')).toBe('must have at most 6 decimal places for USDC');
    expect(amountProblem('0.00000001', 'BTC')).toBeNull();
    expect(amountProblem('0.000000000000000001', 'ETH')).toBeNull();
    expect(amountProblem('0.0000000000000000001', 'ETH')).toBe('must have at most 18 decimal places for ETH');
  });

  it('checks only the form when the asset is unknown, which its own field reports', () => {
    expect(amountProblem('1.0000000001', 'DOGE')).toBeNull();
    expect(amountProblem('1.0000000001', undefined)).toBeNull();
    expect(amountProblem('1e5', 'DOGE')).toBe(FORM);
  });

  it('refuses 10^15 and more: what amount + fee, a balance or amount × rate could not hold', () => {
    const bound = 'must have at most 15 digits before the decimal point (less than 1000000000000000)';
    expect(amountProblem('1000000000000000', 'USD')).toBe(bound);
    expect(amountProblem('99999999999999999999.5', 'USDC')).toBe(bound);
    expect(amountProblem('1'.repeat(21), 'USD')).toBe(bound);
    expect(amountProblem('999999999999999.99', 'USD')).toBeNull();
    expect(amountProblem(`999999999999999.${'9'.repeat(18)}`, 'ETH')).toBeNull();
    expect(amountProblem(`000${'9'.repeat(15)}`, 'USD')).toBeNull();
  });

  it('documents the form and the bound as a pattern that agrees with the check', () => {
    const pattern = new RegExp(AMOUNT_PATTERN);
    for (const value of ['1', '0.5', '007.5', '999999999999999.99', `000${'9'.repeat(15)}`]) expect({ value, matches: pattern.test(value) }).toEqual({ value, matches: true });
    for (const value of ['1000000000000000', '99999999999999999999.5', '1e5', '-1', '1.', '.5', ' 1']) {
      expect({ value, matches: pattern.test(value) }).toEqual({ value, matches: false });
      expect(amountProblem(value, 'USD')).not.toBeNull();
    }
  });
});

describe('@IsAmount', () => {
  const payout = (asset: string, amount: unknown) => Object.assign(new Payout(), { asset, amount });

  it('validates against the sibling asset field', async () => {
    expect(await messagesOf(payout('USD', '10.50'))).toEqual({});
    expect(await messagesOf(payout('USD', '10.505'))).toEqual({ amount: 'must have at most 2 decimal places for USD' });
    expect(await messagesOf(payout('BTC', '10.505'))).toEqual({});
    expect(await messagesOf(payout('USD', 10))).toEqual({ amount: FORM });
    expect(await messagesOf(payout('USD', '0'))).toEqual({ amount: 'must be greater than zero' });
  });

  it('reads each amount’s own asset field, and skips an optional amount that is absent', async () => {
    const quote = Object.assign(new Quote(), { fromAsset: 'USD', toAsset: 'BTC', toAmount: '0.00012345' });
    expect(await messagesOf(quote)).toEqual({});
    expect(await messagesOf(Object.assign(quote, { fromAmount: '0.00012345' }))).toEqual({
      fromAmount: 'must have at most 2 decimal places for USD',
    });
  });
});
