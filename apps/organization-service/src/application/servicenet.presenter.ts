import type { ServicenetView } from '@pfs/contracts';
import type { ServicenetMembership } from '../domain/servicenet';

export function presentServicenet(membership: ServicenetMembership): ServicenetView {
  return { object: 'servicenet', enabled: membership.enabled, handle: membership.handle, updatedAt: membership.updatedAt?.toISOString() ?? null };
}
