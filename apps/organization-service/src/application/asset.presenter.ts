import type { AssetView } from '@pfs/contracts';
import type { AssetAvailability } from '../domain/asset-availability';

export function presentAsset({ asset, status }: AssetAvailability): AssetView {
  return { object: 'asset', code: asset.code, name: asset.name, type: asset.type, scale: asset.scale, status };
}
