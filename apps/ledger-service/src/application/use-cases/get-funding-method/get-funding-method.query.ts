export interface GetFundingMethodQuery {
  organizationId: string;
  fundingMethodId: string;
}
