export interface GetAccountQuery {
  organizationId: string;
  accountId: string;
}
