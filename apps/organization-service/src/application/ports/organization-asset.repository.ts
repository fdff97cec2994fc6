export abstract class OrganizationAssetRepository {
  /** Codes of the assets granted to the organization. */
  abstract enabledAssetCodes(organizationId: string): Promise<Set<string>>;
}
