import { Big, RandomSource } from '@pfs/contracts';
import { ManualClock, SeededRandomSource } from '@pfs/test-doubles';
import { EnvRateDriftSettings } from '../src/adapters/config/env-rate-drift-settings';
import { ConfiguredRateSource } from '../src/adapters/rates/configured-rate-source';
import { DriftingRateSource, MAX_CATCH_UP_STEPS } from '../src/adapters/rates/drifting-rate-source';
import { rateSourceFromEnv } from '../src/adapters/rates/rate-source-from-env';
import type { RateSource } from '../src/application/ports/rate-source';
import { DRIFT_DRAW_BYTES, RateDrift } from '../src/domain/rate-drift';
import { DEFAULT_RATES, RateTable } from '../src/domain/rate-table';

/** The same byte every time (0xff: every draw +1, 0x00: every draw -1), counting the calls: one per step. */
class FixedRandomSource extends RandomSource {
  calls = 0;

  constructor(private readonly byte: number) {
    super();
  }

  bytes(length: number): Uint8Array {
    this.calls += 1;
    return new Uint8Array(length).fill(this.byte);
  }
}

const INTERVAL = 1000;
const table = RateTable.parse(DEFAULT_RATES);

async function ratesOf(source: RateSource): Promise<Record<string, string>> {
  const rates: Record<string, string> = {};
  for (const pair of table.pairs()) {
    const [from, to] = pair.split('/');
    rates[pair] = (await source.midRate(from, to)).toFixed();
  }
  return rates;
}

async function typedRatesOf(source: RateSource): Promise<Map<string, Big>> {
  const rates = new Map<string, Big>();
  for (const pair of table.typedRates().keys()) {
    const [from, to] = pair.split('/');
    rates.set(pair, await source.midRate(from, to));
  }
  return rates;
}

/** `rate` after `steps` steps of `bps` with the same draw each time. */
function walked(rate: string, bps: number, draw: number, steps: number): string {
  const drift = new RateDrift(bps);
  let current = new Big(rate);
  for (let step = 0; step < steps; step += 1) current = drift.step(current, new Big(rate), new Big(draw));
  return current.toFixed();
}

describe('rate drift (RATES_DRIFT_BPS)', () => {
  it('is off by default: the configured table exactly, however much time passes', async () => {
    const clock = new ManualClock();
    const random = new FixedRandomSource(0xff);
    const source = rateSourceFromEnv(clock, random, {});
    expect(source).toBeInstanceOf(ConfiguredRateSource);
    const before = await ratesOf(source);
    clock.advance(3600_000);
    expect(await ratesOf(source)).toEqual(before);
    expect(before).toEqual(await ratesOf(new ConfiguredRateSource({})));
    expect(rateSourceFromEnv(clock, random, { RATES_DRIFT_BPS: '0' })).toBeInstanceOf(ConfiguredRateSource);
    expect(random.calls).toBe(0);
  });

  it('at 0 bps, even the walking source keeps the table exactly', async () => {
    const clock = new ManualClock();
    const source = new DriftingRateSource(table, { bps: 0, intervalMs: INTERVAL }, clock, new SeededRandomSource('zero'));
    clock.advance(50 * INTERVAL);
    expect(await ratesOf(source)).toEqual(await ratesOf(new ConfiguredRateSource({})));
  });

  it('walks every typed rate within ±10 × bps of its configured value, each inverse derived from it as the table derives it', async () => {
    const clock = new ManualClock();
    const bps = 25;
    const source = new DriftingRateSource(table, { bps, intervalMs: INTERVAL }, clock, new SeededRandomSource('walk'));
    clock.advance(200 * INTERVAL);
    const drifted = await typedRatesOf(source);
    const drift = new RateDrift(bps);
    for (const [pair, configured] of table.typedRates()) {
      const rate = drifted.get(pair) as Big;
      const { low, high } = drift.band(configured);
      expect({ pair, inBand: rate.gte(low) && rate.lte(high), moved: !rate.eq(configured) }).toEqual({ pair, inBand: true, moved: true });
    }
    // Every pair, the inverses included, is what the table derives from the drifted typed rates.
    const derived = table.withTypedRates(drifted);
    const expected: Record<string, string> = {};
    for (const pair of table.pairs()) {
      const [from, to] = pair.split('/');
      expected[pair] = derived.midRate(from, to).toFixed();
    }
    expect(await ratesOf(source)).toEqual(expected);
    expect((await source.midRate('USD', 'EUR')).toFixed()).toBe(new Big(1).div(drifted.get('EUR/USD') as Big).round(24, Big.roundHalfEven).toFixed());
    // Pairs walk independently: not all by the same factor.
    const factors = new Set([...table.typedRates()].map(([pair, configured]) => (drifted.get(pair) as Big).div(configured).toFixed(12)));
    expect(factors.size).toBeGreaterThan(1);
  });

  it('stops at the edge of its band: all draws up, all draws down', async () => {
    const up = new ManualClock();
    const rising = new DriftingRateSource(table, { bps: 10, intervalMs: INTERVAL }, up, new FixedRandomSource(0xff));
    up.advance(15 * INTERVAL);
    expect((await rising.midRate('EUR', 'USD')).toFixed()).toBe('1.0908');
    expect((await rising.midRate('BTC', 'USD')).toFixed()).toBe('97970');
    expect((await rising.midRate('USD', 'EUR')).toFixed()).toBe(new Big(1).div('1.0908').round(24, Big.roundHalfEven).toFixed());
    const down = new ManualClock();
    const falling = new DriftingRateSource(table, { bps: 10, intervalMs: INTERVAL }, down, new FixedRandomSource(0x00));
    down.advance(15 * INTERVAL);
    expect((await falling.midRate('EUR', 'USD')).toFixed()).toBe('1.0692');
    expect((await falling.midRate('ETH', 'BTC')).toFixed()).toBe('0.03564');
  });

  it('takes one step per whole interval of the clock, when a rate is read, none before the first', async () => {
    const clock = new ManualClock();
    const random = new FixedRandomSource(0xff);
    const source = new DriftingRateSource(table, { bps: 10, intervalMs: INTERVAL }, clock, random);
    const eurUsd = async () => (await source.midRate('EUR', 'USD')).toFixed();

    expect(await eurUsd()).toBe('1.08');
    clock.advance(INTERVAL - 1);
    expect(await eurUsd()).toBe('1.08');
    expect(random.calls).toBe(0);

    clock.advance(1);
    expect(await eurUsd()).toBe(walked('1.08', 10, 1, 1));
    expect(await eurUsd()).toBe('1.08108');
    expect(random.calls).toBe(1);

    // 2.5 intervals: two steps; the half interval counts towards the next one.
    clock.advance(2.5 * INTERVAL);
    expect(await eurUsd()).toBe(walked('1.08', 10, 1, 3));
    expect(random.calls).toBe(3);
    clock.advance(INTERVAL / 2);
    expect(await eurUsd()).toBe(walked('1.08', 10, 1, 4));
    expect(random.calls).toBe(4);

    // Every typed pair takes each step (one draw apiece).
    expect((await source.midRate('ETH', 'BTC')).toFixed()).toBe(walked('0.036', 10, 1, 4));
  });

  it(`catches up at most ${MAX_CATCH_UP_STEPS} steps after a long idle, and keeps its schedule`, async () => {
    const clock = new ManualClock();
    const random = new FixedRandomSource(0x00);
    const source = new DriftingRateSource(table, { bps: 1, intervalMs: INTERVAL }, clock, random);
    clock.advance(5000 * INTERVAL + INTERVAL / 2);
    await source.midRate('EUR', 'USD');
    expect(random.calls).toBe(MAX_CATCH_UP_STEPS);
    clock.advance(INTERVAL / 2);
    await source.midRate('EUR', 'USD');
    expect(random.calls).toBe(MAX_CATCH_UP_STEPS + 1);
  });

  it('draws DRIFT_DRAW_BYTES bytes per typed pair and step, from the RandomSource port', async () => {
    const clock = new ManualClock();
    const lengths: number[] = [];
    const random = new (class extends RandomSource {
      bytes(length: number): Uint8Array {
        lengths.push(length);
        return new Uint8Array(length).fill(0x7f);
      }
    })();
    const source = new DriftingRateSource(RateTable.parse('EUR/USD=1.08,ETH/BTC=0.036'), { bps: 5, intervalMs: INTERVAL }, clock, random);
    clock.advance(2 * INTERVAL);
    await source.midRate('USD', 'EUR');
    expect(lengths).toEqual([2 * DRIFT_DRAW_BYTES, 2 * DRIFT_DRAW_BYTES]);
  });

  it('walks the RATES table, from the env, when RATES_DRIFT_BPS > 0', async () => {
    const clock = new ManualClock();
    const source = rateSourceFromEnv(clock, new FixedRandomSource(0xff), { RATES: 'EUR/USD=1.10', RATES_DRIFT_BPS: '20', RATES_DRIFT_INTERVAL_MS: '250' });
    expect(source).toBeInstanceOf(DriftingRateSource);
    clock.advance(250);
    expect((await source.midRate('EUR', 'USD')).toFixed()).toBe('1.1022');
    await expect(source.midRate('BTC', 'USD')).rejects.toMatchObject({ code: 'swap_direction_not_allowed' });
  });
});

describe('EnvRateDriftSettings', () => {
  it('defaults to off, one step a second', () => {
    expect({ ...new EnvRateDriftSettings({}) }).toEqual({ bps: 0, intervalMs: 1000 });
    expect({ ...new EnvRateDriftSettings({ RATES_DRIFT_BPS: '', RATES_DRIFT_INTERVAL_MS: '' }) }).toEqual({ bps: 0, intervalMs: 1000 });
    expect({ ...new EnvRateDriftSettings({ RATES_DRIFT_BPS: '500', RATES_DRIFT_INTERVAL_MS: '100' }) }).toEqual({ bps: 500, intervalMs: 100 });
  });

  it.each(['-1', '1.5', 'abc', '05', '501', '1e2', '10 bps'])('refuses RATES_DRIFT_BPS=%s at start', (value) => {
    expect(() => new EnvRateDriftSettings({ RATES_DRIFT_BPS: value })).toThrow(`RATES_DRIFT_BPS must be an integer 0–500 (basis points per step; 0: off), not "${value}"`);
    expect(() => rateSourceFromEnv(new ManualClock(), new SeededRandomSource('x'), { RATES_DRIFT_BPS: value })).toThrow('RATES_DRIFT_BPS must be');
  });

  it.each(['0', '99', '1s', '-1000', '10000000'])('refuses RATES_DRIFT_INTERVAL_MS=%s at start', (value) => {
    expect(() => new EnvRateDriftSettings({ RATES_DRIFT_BPS: '5', RATES_DRIFT_INTERVAL_MS: value })).toThrow(`RATES_DRIFT_INTERVAL_MS must be 100–9999999, not "${value}"`);
  });

  it('refuses a drift in production, where rates are not a game', () => {
    expect(() => new EnvRateDriftSettings({ SERVICE_ENV: 'production', RATES_DRIFT_BPS: '5' })).toThrow('RATES_DRIFT_BPS is a sandbox setting: refused when SERVICE_ENV=production');
    expect(new EnvRateDriftSettings({ SERVICE_ENV: 'production', RATES_DRIFT_BPS: '0' }).bps).toBe(0);
  });
});
