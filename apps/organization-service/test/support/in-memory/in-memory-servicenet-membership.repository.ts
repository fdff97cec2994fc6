import { ServicenetMembershipRepository } from '../../../src/application/ports/servicenet-membership.repository';
import { ServicenetMembership } from '../../../src/domain/servicenet';
import { ServicenetHandleTakenError } from '../../../src/domain/servicenet-errors';

/** The ServicenetMembershipRepository contract over a map, the unique handle included. */
export class InMemoryServicenetMembershipRepository extends ServicenetMembershipRepository {
  readonly rows = new Map<string, ServicenetMembership>();

  async find(organizationId: string): Promise<ServicenetMembership> {
    return this.rows.get(organizationId) ?? ServicenetMembership.none(organizationId);
  }

  async findByHandle(handle: string): Promise<ServicenetMembership | null> {
    return [...this.rows.values()].find((row) => row.handle === handle) ?? null;
  }

  async save(membership: ServicenetMembership): Promise<void> {
    const holder = membership.handle === null ? null : await this.findByHandle(membership.handle);
    if (holder && holder.organizationId !== membership.organizationId) throw new ServicenetHandleTakenError(membership.handle as string);
    this.rows.set(membership.organizationId, membership);
  }
}
