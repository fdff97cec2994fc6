import { Big } from '@pfs/contracts';
import fc from 'fast-check';
import { priceBuying, priceSelling, spreadFee, yieldOf, type PricingInput } from './quote-pricing';

const big = (value: string | number) => new Big(value);
const unitOf = (scale: number) => new Big(1).div(new Big(10).pow(scale));

/** A positive mid-rate of up to 8 significant digits, from 1e-8 to 1e8. */
const rate = fc.tuple(fc.integer({ min: 1, max: 99_999_999 }), fc.integer({ min: -16, max: 0 })).map(([digits, exponent]) => new Big(digits).times(new Big(10).pow(exponent)));
const SCALES = [2, 6, 8, 18] as const;
const input = fc.record({
  midRate: rate,
  spreadBps: fc.integer({ min: 0, max: 500 }),
  fromScale: fc.constantFrom(...SCALES),
  toScale: fc.constantFrom(...SCALES),
});

describe('quote pricing (api-decisions §6)', () => {
  const usdToEur: PricingInput = { midRate: big('0.92'), spreadBps: 100, fromScale: 2, toScale: 2 };

  it('charges the spread in the source asset, rounded up, and rounds what the client receives down', () => {
    // fee = 100.01 × 1 % = 1.0001 → 1.01; (100.01 − 1.01) × 0.92 = 91.08
    expect(priceSelling(big('100.01'), usdToEur)).toEqual({ fromAmount: big('100.01'), toAmount: big('91.08'), fee: big('1.01'), appliedRate: '0.910708929107089291' });
    // No spread: no fee; a tiny yield below one cent is refused rather than quoted as zero.
    expect(priceSelling(big('10'), { ...usdToEur, spreadBps: 0 }).fee).toEqual(big(0));
    expect(() => priceSelling(big('0.01'), usdToEur)).toThrow(expect.objectContaining({ code: 'trade_size_out_of_bounds' }));
  });

  it('rounds at the edge of each scale: one unit of fee more, one unit of yield less, never the other way', () => {
    // BTC (8) → ETH (18): 0.00000001 BTC at 100 bps: exact fee 1e-10, charged one satoshi.
    const btcEth: PricingInput = { midRate: big('27.5'), spreadBps: 100, fromScale: 8, toScale: 18 };
    expect(spreadFee(big('0.00000101'), btcEth)).toEqual(big('0.00000002'));
    expect(yieldOf(big('0.00000101'), btcEth)).toEqual(big('0.00002722500000000'));
    // USDC (6) → USD (2): 1.999999 USDC at rate 1, no spread, yields 1.99 (never 2.00).
    expect(yieldOf(big('1.999999'), { midRate: big(1), spreadBps: 0, fromScale: 6, toScale: 2 })).toEqual(big('1.99'));
  });

  it('buys an exact toAmount with the smallest fromAmount that yields it', () => {
    // 100.00 USD: fee 1.00, 99.00 × 0.92 = 91.08 exactly; 99.99 pays the same fee and yields 91.07.
    const quote = priceBuying(big('91.08'), usdToEur);
    expect(quote).toEqual({ fromAmount: big('100'), toAmount: big('91.08'), fee: big('1'), appliedRate: '0.9108' });
    expect(yieldOf(big('99.99'), usdToEur)).toEqual(big('91.07'));
  });

  it('property: selling, the client never pays less fee nor receives more than the exact amounts, by under one unit', () => {
    fc.assert(
      fc.property(input, fc.bigInt({ min: 1n, max: 10n ** 26n }), (pricing, units) => {
        const fromAmount = new Big(units.toString()).times(unitOf(pricing.fromScale));
        const exactFee = fromAmount.times(pricing.spreadBps).div(10000);
        const fee = spreadFee(fromAmount, pricing);
        expect(fee.gte(exactFee) && fee.minus(exactFee).lt(unitOf(pricing.fromScale))).toBe(true);
        const exactYield = fromAmount.minus(fee).times(pricing.midRate);
        const received = yieldOf(fromAmount, pricing);
        expect(received.lte(exactYield) && exactYield.minus(received).lt(unitOf(pricing.toScale))).toBe(true);
        // And against the spread's exact share, unrounded: never more.
        expect(received.lte(fromAmount.minus(exactFee).times(pricing.midRate))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('property: buying, fromAmount is never less than exactly needed, and one unit less would not do', () => {
    // A toAmount some units under what a random fromAmount yields: attainable, at any scale and rate.
    const buying = input.chain((pricing) =>
      fc.tuple(fc.constant(pricing), fc.bigInt({ min: 1n, max: 10n ** 26n }), fc.bigInt({ min: 0n, max: 1000n })).map(([p, fromUnits, under]) => {
        const attainable = yieldOf(new Big(fromUnits.toString()).times(unitOf(p.fromScale)), p);
        return [p, attainable.minus(new Big(under.toString()).times(unitOf(p.toScale)))] as const;
      }),
    );
    fc.assert(
      fc.property(buying, ([pricing, toAmount]) => {
        fc.pre(toAmount.gt(0));
        const quote = priceBuying(toAmount, pricing);
        expect(quote.toAmount).toEqual(toAmount);
        expect(yieldOf(quote.fromAmount, pricing).gte(toAmount)).toBe(true);
        // Never less than the exact price of toAmount at the mid-rate less the spread.
        const keep = new Big(1).minus(new Big(pricing.spreadBps).div(10000));
        expect(quote.fromAmount.gte(toAmount.div(pricing.midRate).div(keep).round(30, Big.roundDown))).toBe(true);
        const less = quote.fromAmount.minus(unitOf(pricing.fromScale));
        expect(less.lte(0) || yieldOf(less, pricing).lt(toAmount)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
