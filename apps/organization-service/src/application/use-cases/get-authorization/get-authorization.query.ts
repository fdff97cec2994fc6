export interface GetAuthorizationQuery {
  /** The caller: the grantor or the grantee. */
  organizationId: string;
  authorizationId: string;
}
