export interface RevokeAuthorizationCommand {
  /** The caller: the grantor or the grantee. */
  organizationId: string;
  authorizationId: string;
}
