import { Injectable } from '@nestjs/common';
import { ASSET_CATALOG, type AssetView } from '@pfs/contracts';
import { assetAvailability } from '../../../domain/asset-availability';
import { OrganizationNotFoundError } from '../../../domain/organization-errors';
import { presentAsset } from '../../asset.presenter';
import { OrganizationAssetRepository } from '../../ports/organization-asset.repository';
import { OrganizationRepository } from '../../ports/organization.repository';
import type { ListAssetsQuery } from './list-assets.query';

/** Spec 4.1: every catalog asset with its status for the organization, in catalog order. */
@Injectable()
export class ListAssetsUseCase {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly assets: OrganizationAssetRepository,
  ) {}

  async execute(query: ListAssetsQuery): Promise<AssetView[]> {
    const [exists, enabled] = await Promise.all([
      this.organizations.exists(query.organizationId),
      this.assets.enabledAssetCodes(query.organizationId),
    ]);
    if (!exists) throw new OrganizationNotFoundError(query.organizationId);
    return assetAvailability(ASSET_CATALOG, enabled).map(presentAsset);
  }
}
