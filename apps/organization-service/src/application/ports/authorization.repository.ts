/** Letters of Authorization (LOA) a client organization has signed for another organization. */
export abstract class AuthorizationRepository {
  /** Whether `grantor` has granted `grantee` an authorization that is ACTIVE now. */
  abstract hasActiveAuthorization(grantorOrganizationId: string, granteeOrganizationId: string): Promise<boolean>;
}
