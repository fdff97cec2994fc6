import { Big } from '@pfs/contracts';
import fc from 'fast-check';
import { DRIFT_DRAW_BYTES, DRIFT_SIGNIFICANT_DIGITS, MAX_DRIFT_BPS, RateDrift, uniformDraw } from './rate-drift';

const bytes = (...values: number[]) => new Uint8Array(values);
const keepsDigits = (value: Big) => new Big(value.toPrecision(DRIFT_SIGNIFICANT_DIGITS)).eq(value);

describe('uniformDraw', () => {
  it('maps bytes to a grid symmetric around 0 inside (-1, 1), exactly', () => {
    const unit = new Big(5).pow(48).times('1e-48'); // 2^-48, exact
    expect(uniformDraw(new Uint8Array(DRIFT_DRAW_BYTES))).toEqual(new Big(-1).plus(unit));
    expect(uniformDraw(new Uint8Array(DRIFT_DRAW_BYTES).fill(0xff))).toEqual(new Big(1).minus(unit));
    expect(uniformDraw(bytes(0x80, 0, 0, 0, 0, 0))).toEqual(unit);
    expect(uniformDraw(bytes(0x7f, 0xff, 0xff, 0xff, 0xff, 0xff))).toEqual(unit.neg());
    expect(uniformDraw(bytes(0xc0, 0, 0, 0, 0, 0))).toEqual(new Big('0.5').plus(unit));
  });

  it('takes exactly DRIFT_DRAW_BYTES bytes', () => {
    expect(() => uniformDraw(bytes(1, 2, 3))).toThrow(`a drift draw takes ${DRIFT_DRAW_BYTES} bytes, not 3`);
  });
});

describe('RateDrift', () => {
  const anchor = new Big('1.08');

  it('bounds a rate to ±10 × bps around its configured value, exactly', () => {
    const { low, high } = new RateDrift(10).band(anchor);
    expect([low.toFixed(), high.toFixed()]).toEqual(['1.0692', '1.0908']);
    const widest = new RateDrift(MAX_DRIFT_BPS).band(new Big('97000'));
    expect([widest.low.toFixed(), widest.high.toFixed()]).toEqual(['48500', '145500']);
  });

  it('moves a rate by draw × bps basis points of its current value', () => {
    const drift = new RateDrift(10);
    expect(drift.step(anchor, anchor, new Big(1)).toFixed()).toBe('1.08108');
    expect(drift.step(anchor, anchor, new Big(-1)).toFixed()).toBe('1.07892');
    expect(drift.step(anchor, anchor, new Big(0)).toFixed()).toBe('1.08');
    expect(drift.step(new Big('1.09'), anchor, new Big('0.5')).toFixed()).toBe('1.090545');
  });

  it(`keeps ${DRIFT_SIGNIFICANT_DIGITS} significant digits, rounding half to even`, () => {
    const moved = new RateDrift(25).step(new Big('0.036'), new Big('0.036'), new Big('0.123456789'));
    // 0.036 × (1 + 0.123456789 × 25 / 10000) = 0.03601111111101
    expect(moved.toFixed()).toBe('0.03601111111');
    expect(keepsDigits(moved)).toBe(true);
  });

  it('clamps a step that would leave the band to its edge', () => {
    const drift = new RateDrift(10);
    const { low, high } = drift.band(anchor);
    expect(drift.step(high, anchor, new Big(1))).toEqual(high);
    expect(drift.step(new Big('1.0905'), anchor, new Big(1))).toEqual(high);
    expect(drift.step(low, anchor, new Big(-1))).toEqual(low);
  });

  it('leaves every rate as configured at 0 bps, even one with more digits than a step keeps', () => {
    const precise = new Big('0.123456789012345678');
    expect(new RateDrift(0).step(precise, precise, new Big(1))).toEqual(precise);
    expect(new RateDrift(0).step(anchor, anchor, new Big(-1))).toEqual(anchor);
  });

  it('never leaves the band and keeps its digits (or an exact edge), whatever the draws', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_DRIFT_BPS }),
        fc.constantFrom('1.08', '97000', '0.036', '1', '0.0000103'),
        fc.array(fc.uint8Array({ minLength: DRIFT_DRAW_BYTES, maxLength: DRIFT_DRAW_BYTES }), { minLength: 1, maxLength: 60 }),
        (bps, configured, draws) => {
          const drift = new RateDrift(bps);
          const start = new Big(configured);
          const { low, high } = drift.band(start);
          let rate = start;
          for (const draw of draws) {
            const next = drift.step(rate, start, uniformDraw(draw));
            const limit = rate.times(bps).div(10000);
            expect(next.minus(rate).abs().lte(limit.plus(rate.times('1e-9')))).toBe(true);
            rate = next;
            expect(rate.gte(low) && rate.lte(high)).toBe(true);
            expect(keepsDigits(rate) || rate.eq(low) || rate.eq(high)).toBe(true);
          }
        },
      ),
    );
  });

  it('is an integer 0–MAX_DRIFT_BPS', () => {
    for (const bad of [-1, 1.5, MAX_DRIFT_BPS + 1, Number.NaN]) expect(() => new RateDrift(bad)).toThrow(`a rate drift is an integer 0–${MAX_DRIFT_BPS} bps`);
  });

  it('refuses a draw outside [-1, 1]', () => {
    expect(() => new RateDrift(5).step(anchor, anchor, new Big('1.0001'))).toThrow('a drift draw is in [-1, 1], not 1.0001');
  });
});
