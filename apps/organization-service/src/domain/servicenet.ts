import { InvalidServicenetHandleError, ServicenetNotEnabledError } from './servicenet-errors';

/** A servicenet handle: 3 to 32 of `[a-z0-9_-]`, compared without case. */
export const SERVICENET_HANDLE_PATTERN = /^[a-z0-9_-]{3,32}$/;

/** The handle as stored and compared: lower-cased, so uniqueness ignores case. */
export function normalizeHandle(value: string): string {
  const handle = value.trim().toLowerCase();
  if (!SERVICENET_HANDLE_PATTERN.test(handle)) throw new InvalidServicenetHandleError('must be 3 to 32 characters of a-z, 0-9, _ and -');
  return handle;
}

/**
 * An organization's membership of servicenet (internal transfers between organizations, issue
 * 14 §2). Off until the organization enables it; a handle may be claimed only while it is on.
 * Disabling keeps the handle reserved (no one else takes it while the organization is away), but
 * transfers from and to the organization are refused until it enables servicenet again.
 */
export class ServicenetMembership {
  constructor(
    readonly organizationId: string,
    readonly enabled: boolean,
    /** Lower-cased; null until claimed. */
    readonly handle: string | null,
    /** When the membership last changed; null while never touched. */
    readonly updatedAt: Date | null,
  ) {}

  static none(organizationId: string): ServicenetMembership {
    return new ServicenetMembership(organizationId, false, null, null);
  }

  /** Idempotent: enabling an enabled membership changes nothing (same object). */
  enable(now: Date): ServicenetMembership {
    return this.enabled ? this : new ServicenetMembership(this.organizationId, true, this.handle, now);
  }

  /** Idempotent, like `enable`. */
  disable(now: Date): ServicenetMembership {
    return this.enabled ? new ServicenetMembership(this.organizationId, false, this.handle, now) : this;
  }

  /** Claims or changes the handle; the previous one is released. Uniqueness is the repository's. */
  claimHandle(value: string, now: Date): ServicenetMembership {
    const handle = normalizeHandle(value);
    if (!this.enabled) throw new ServicenetNotEnabledError(this.organizationId);
    return handle === this.handle ? this : new ServicenetMembership(this.organizationId, true, handle, now);
  }
}
