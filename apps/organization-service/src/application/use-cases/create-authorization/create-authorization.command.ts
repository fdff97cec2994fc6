export interface CreateAuthorizationCommand {
  /** The caller, signing with its own key. */
  grantorOrganizationId: string;
  granteeOrganizationId: string;
}
