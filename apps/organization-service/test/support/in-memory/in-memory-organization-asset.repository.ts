import { OrganizationAssetRepository } from '../../../src/application/ports/organization-asset.repository';

/** The OrganizationAssetRepository contract: a grant already held keeps its original time. */
export class InMemoryOrganizationAssetRepository extends OrganizationAssetRepository {
  /** `<organizationId>/<asset>` → when it was granted. */
  readonly grants = new Map<string, Date>();

  async enabledAssetCodes(organizationId: string): Promise<Set<string>> {
    const prefix = `${organizationId}/`;
    return new Set([...this.grants.keys()].filter((key) => key.startsWith(prefix)).map((key) => key.slice(prefix.length)));
  }

  async enable(organizationId: string, assetCode: string, at: Date): Promise<void> {
    const key = `${organizationId}/${assetCode}`;
    if (!this.grants.has(key)) this.grants.set(key, at);
  }
}
