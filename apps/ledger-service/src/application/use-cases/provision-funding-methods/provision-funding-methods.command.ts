export interface ProvisionFundingMethodsCommand {
  organizationId: string;
  /** Null: the organization's primary account. */
  accountId: string | null;
  asset: string;
}
