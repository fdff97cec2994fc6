import { ASSET_CATALOG, Big } from '@pfs/contracts';
import { DEFAULT_RATES, RateTable } from './rate-table';

describe('RateTable', () => {
  it('ships a rate for every ordered pair of the catalog, each inverse derived from the one typed', () => {
    const table = RateTable.parse(DEFAULT_RATES);
    const codes = ASSET_CATALOG.map((asset) => asset.code);
    const pairs = codes.flatMap((from) => codes.filter((to) => to !== from).map((to) => `${from}/${to}`));
    expect(table.pairs().sort()).toEqual(pairs.sort());
    expect(table.midRate('EUR', 'USD')).toEqual(new Big('1.08'));
    expect(table.midRate('USD', 'EUR').toFixed()).toBe('0.925925925925925925925926');
    expect(table.midRate('BTC', 'ETH').times(table.midRate('ETH', 'BTC')).minus(1).abs().lt('1e-20')).toBe(true);
  });

  it('refuses the same asset on both sides and a pair without a rate with swap_direction_not_allowed', () => {
    const table = RateTable.parse('EUR/USD=1.08');
    expect(() => table.midRate('USD', 'USD')).toThrow(expect.objectContaining({ code: 'swap_direction_not_allowed', message: 'USD → USD: the same asset on both sides is not an exchange' }));
    expect(() => table.midRate('BTC', 'USD')).toThrow(expect.objectContaining({ code: 'swap_direction_not_allowed', message: 'BTC → USD: no rate is available for this pair' }));
  });

  it('lists its typed pairs, and replaces typed rates deriving every inverse again exactly as parse does', () => {
    const table = RateTable.parse('EUR/USD=1.08,ETH/BTC=0.036');
    expect([...table.typedRates()].map(([pair, rate]) => `${pair}=${rate.toFixed()}`)).toEqual(['EUR/USD=1.08', 'ETH/BTC=0.036']);
    const moved = table.withTypedRates(new Map([['EUR/USD', new Big('1.1')]]));
    const parsed = RateTable.parse('EUR/USD=1.1,ETH/BTC=0.036');
    for (const pair of parsed.pairs()) {
      const [from, to] = pair.split('/');
      expect({ pair, rate: moved.midRate(from, to).toFixed() }).toEqual({ pair, rate: parsed.midRate(from, to).toFixed() });
    }
    expect(table.midRate('EUR', 'USD').toFixed()).toBe('1.08');
    expect(() => table.withTypedRates(new Map([['USD/EUR', new Big('0.9')]]))).toThrow('rate USD/EUR is not a typed pair of the table');
    expect(() => table.withTypedRates(new Map([['EUR/USD', new Big('0')]]))).toThrow('rate EUR/USD must be positive, not 0');
  });

  it('stops the service at start on a malformed table, an unknown asset, a pair typed twice or a zero rate', () => {
    expect(() => RateTable.parse('EURUSD=1.08')).toThrow('is not BASE/QUOTE=RATE');
    expect(() => RateTable.parse('GBP/USD=1.27')).toThrow('GBP is not an asset of the catalog');
    expect(() => RateTable.parse('EUR/USD=1.08,USD/EUR=0.92')).toThrow('given twice');
    expect(() => RateTable.parse('EUR/USD=0')).toThrow('must be positive');
    expect(() => RateTable.parse('EUR/EUR=1')).toThrow('a pair needs two assets');
  });
});
