import type { ServicenetHandleResolution } from '@pfs/contracts';

/** Servicenet memberships and handles: the organization service's to answer (this service keeps no copy). */
export abstract class ServicenetDirectory {
  /** Whether the organization is on servicenet now. */
  abstract isEnabled(organizationId: string): Promise<boolean>;
  /** The organization holding the handle (any case), or null when none does. */
  abstract resolve(handle: string): Promise<ServicenetHandleResolution | null>;
}
