import type { AssetDefinition, AssetStatus } from '@pfs/contracts';

export interface AssetAvailability {
  asset: AssetDefinition;
  status: AssetStatus;
}

/**
 * Every catalog asset is open to every organization: ENABLED once granted (a first funding
 * method), AVAILABLE until then. Catalog order is kept so the list reads the same every time;
 * grants of codes no longer in the catalog are ignored.
 */
export function assetAvailability(
  catalog: readonly AssetDefinition[],
  enabledCodes: ReadonlySet<string>,
): AssetAvailability[] {
  return catalog.map((asset) => ({ asset, status: enabledCodes.has(asset.code) ? 'ENABLED' : 'AVAILABLE' }));
}
