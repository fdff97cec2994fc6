import { ASSET_CATALOG } from '@pfs/contracts';
import { assetAvailability } from './asset-availability';

describe('assetAvailability', () => {
  it('offers every catalog asset as AVAILABLE to an organization with no grants, in catalog order', () => {
    const result = assetAvailability(ASSET_CATALOG, new Set());
    expect(result.map((entry) => entry.asset.code)).toEqual(['USD', 'EUR', 'USDC', 'USDT', 'BTC', 'ETH']);
    expect(result.every((entry) => entry.status === 'AVAILABLE')).toBe(true);
  });

  it('marks granted assets ENABLED and leaves the rest AVAILABLE', () => {
    const result = assetAvailability(ASSET_CATALOG, new Set(['USDC', 'EUR']));
    expect(Object.fromEntries(result.map((entry) => [entry.asset.code, entry.status]))).toEqual({
      USD: 'AVAILABLE',
      EUR: 'ENABLED',
      USDC: 'ENABLED',
      USDT: 'AVAILABLE',
      BTC: 'AVAILABLE',
      ETH: 'AVAILABLE',
    });
  });

  it('ignores grants of assets that are no longer in the catalog', () => {
    const result = assetAvailability(ASSET_CATALOG, new Set(['DOGE']));
    expect(result).toHaveLength(ASSET_CATALOG.length);
    expect(result.some((entry) => entry.asset.code === 'DOGE')).toBe(false);
  });
});
