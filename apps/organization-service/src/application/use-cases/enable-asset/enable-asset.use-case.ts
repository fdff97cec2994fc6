import { Injectable } from '@nestjs/common';
import { Clock, findAsset, UnitOfWork, type AssetView } from '@pfs/contracts';
import { AssetNotFoundError } from '../../../domain/asset-errors';
import { OrganizationNotFoundError } from '../../../domain/organization-errors';
import { presentAsset } from '../../asset.presenter';
import { OrganizationAssetRepository } from '../../ports/organization-asset.repository';
import { OrganizationRepository } from '../../ports/organization.repository';
import type { EnableAssetCommand } from './enable-asset.command';

/**
 * Spec §3: the first POST /v1/funding-methods for an asset moves it from AVAILABLE to ENABLED
 * for the organization; later calls leave it ENABLED.
 */
@Injectable()
export class EnableAssetUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly organizations: OrganizationRepository,
    private readonly assets: OrganizationAssetRepository,
    private readonly clock: Clock,
  ) {}

  async execute(command: EnableAssetCommand): Promise<AssetView> {
    const asset = findAsset(command.asset);
    if (!asset) throw new AssetNotFoundError(command.asset);
    return this.unitOfWork.run(async () => {
      if (!(await this.organizations.exists(command.organizationId))) throw new OrganizationNotFoundError(command.organizationId);
      await this.assets.enable(command.organizationId, asset.code, this.clock.now());
      return presentAsset({ asset, status: 'ENABLED' });
    });
  }
}
