export abstract class OrganizationAssetRepository {
  /** Codes of the assets granted to the organization. */
  abstract enabledAssetCodes(organizationId: string): Promise<Set<string>>;
  /** Grants the asset; a grant already held is kept with its original time. */
  abstract enable(organizationId: string, assetCode: string, at: Date): Promise<void>;
}
