import type { ServicenetMembership } from '../../domain/servicenet';

export abstract class ServicenetMembershipRepository {
  /** The organization's membership; `ServicenetMembership.none` when never touched. */
  abstract find(organizationId: string): Promise<ServicenetMembership>;
  /** The membership holding a (lower-cased) handle, or null. */
  abstract findByHandle(handle: string): Promise<ServicenetMembership | null>;
  /**
   * Inserts or updates. Callers hold the organization's row lock, so one organization's saves do
   * not race; a handle another organization holds is `servicenet_handle_taken`.
   */
  abstract save(membership: ServicenetMembership): Promise<void>;
}
