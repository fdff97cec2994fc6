import { Injectable } from '@nestjs/common';
import { PrismaTransactionHost } from '@pfs/persistence';
import { OrganizationAssetRepository } from '../../application/ports/organization-asset.repository';

@Injectable()
export class PrismaOrganizationAssetRepository extends OrganizationAssetRepository {
  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  async enabledAssetCodes(organizationId: string): Promise<Set<string>> {
    const rows = await this.host.client.organizationAsset.findMany({ where: { organizationId }, select: { assetCode: true } });
    return new Set(rows.map((row) => row.assetCode));
  }

  async enable(organizationId: string, assetCode: string, at: Date): Promise<void> {
    // ON CONFLICT DO NOTHING: concurrent and repeated grants converge on one row.
    await this.host.client.organizationAsset.createMany({ data: [{ organizationId, assetCode, enabledAt: at }], skipDuplicates: true });
  }
}
