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

  describe('honours the scale of the named asset', () => {
    it.each([
      ['1.00', 'USD', 2],
      ['0.000001', 'USDC', 6],
      ['0.00000001', 'BTC', 8],
      ['0.000000000000000001', 'ETH', 18],
    ])('accepts %j for %s (%i places)', (value, asset) => {
      expect(amountProblem(value, asset)).toBeNull();
    });

    it.each([
      ['1.001', 'USD', 2],
      ['0.0000001', 'USDC', 6],
      ['0.0000000000000000001', 'ETH', 18],
    ])('refuses %j for %s (more than %i places)', (value, asset, places) => {
      expect(amountProblem(value, asset)).toBe(`must have at most ${places} decimal places for ${asset}`);
    });
  });

  describe('checks only the form when the asset is unknown, which its own field reports', () => {
    it.each([
      ['an asset outside the catalog', 'DOGE'],
      ['no asset', undefined],
    ])('accepts any scale for %s', (_case, asset) => {
      expect(amountProblem('1.0000000001', asset)).toBeNull();
    });

    it('still refuses a malformed amount', () => expect(amountProblem('1e5', 'DOGE')).toBe(FORM));
  });

  describe('refuses 10^15 and more: what amount + fee, a balance or amount × rate could not hold', () => {
    const bound = 'must have at most 15 digits before the decimal point (less than 1000000000000000)';
    it.each([
      ['1000000000000000', 'USD'],
      ['99999999999999999999.5', 'USDC'],
      ['1'.repeat(21), 'USD'],
    ])('refuses %j for %s', (value, asset) => {
      expect(amountProblem(value, asset)).toBe(bound);
    });

    it.each([
      ['999999999999999.99', 'USD'],
      [`999999999999999.${'9'.repeat(18)}`, 'ETH'],
      [`000${'9'.repeat(15)}`, 'USD'],
    ])('accepts %j for %s', (value, asset) => {
      expect(amountProblem(value, asset)).toBeNull();
    });
  });

  describe('documents the form and the bound as a pattern that agrees with the check', () => {
    const pattern = new RegExp(AMOUNT_PATTERN);
    it.each(['1', '0.5', '007.5', '999999999999999.99', `000${'9'.repeat(15)}`])('the pattern matches %j', (value) => {
      expect(pattern.test(value)).toBe(true);
    });

    it.each(['1000000000000000', '99999999999999999999.5', '1e5', '-1', '1.', '.5', ' 1'])('the pattern and the check both refuse %j', (value) => {
      expect(pattern.test(value)).toBe(false);
      expect(amountProblem(value, 'USD')).not.toBeNull();
    });
  });
});

describe('@IsAmount', () => {
  const payout = (asset: string, amount: unknown) => Object.assign(new Payout(), { asset, amount });

  it.each([
    ['an amount of the asset\'s scale', 'USD', '10.50', {}],
    ['too many places for the asset', 'USD', '10.505', { amount: 'must have at most 2 decimal places for USD' }],
    ['the same places for an asset of a larger scale', 'BTC', '10.505', {}],
    ['a JSON number', 'USD', 10, { amount: FORM }],
    ['zero', 'USD', '0', { amount: 'must be greater than zero' }],
  ])('validates against the sibling asset field: %s', async (_case, asset, amount, messages) => {
    expect(await messagesOf(payout(asset, amount))).toEqual(messages);
  });

  it('reads each amount’s own asset field, and skips an optional amount that is absent', async () => {
    const quote = Object.assign(new Quote(), { fromAsset: 'USD', toAsset: 'BTC', toAmount: '0.00012345' });
    expect(await messagesOf(quote)).toEqual({});
    expect(await messagesOf(Object.assign(quote, { fromAmount: '0.00012345' }))).toEqual({
      fromAmount: 'must have at most 2 decimal places for USD',
    });
  });
});
