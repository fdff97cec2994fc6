import { Injectable } from '@nestjs/common';
import { isUniqueViolation, PrismaTransactionHost } from '@pfs/persistence';
import { ServicenetMembershipRepository } from '../../application/ports/servicenet-membership.repository';
import { ServicenetMembership } from '../../domain/servicenet';
import { ServicenetHandleTakenError } from '../../domain/servicenet-errors';

/**
 * `organization.servicenet_memberships`. Handles are stored lower-cased under a unique index, so
 * two organizations claiming one handle at once take turns on the index entry: the second's
 * write fails with P2002 once the first commits, and is answered `servicenet_handle_taken`.
 */
@Injectable()
export class PrismaServicenetMembershipRepository extends ServicenetMembershipRepository {
  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  async find(organizationId: string): Promise<ServicenetMembership> {
    const row = await this.host.client.servicenetMembership.findUnique({ where: { organizationId } });
    return row ? new ServicenetMembership(row.organizationId, row.enabled, row.handle, row.updatedAt) : ServicenetMembership.none(organizationId);
  }

  async findByHandle(handle: string): Promise<ServicenetMembership | null> {
    const row = await this.host.client.servicenetMembership.findUnique({ where: { handle } });
    return row ? new ServicenetMembership(row.organizationId, row.enabled, row.handle, row.updatedAt) : null;
  }

  async save(membership: ServicenetMembership): Promise<void> {
    // Saved only after a change, which always stamps it.
    if (!membership.updatedAt) throw new Error(`servicenet membership of ${membership.organizationId} saved without a change`);
    const state = { enabled: membership.enabled, handle: membership.handle, updatedAt: membership.updatedAt };
    try {
      await this.host.client.servicenetMembership.upsert({
        where: { organizationId: membership.organizationId },
        create: { organizationId: membership.organizationId, ...state },
        update: state,
      });
    } catch (error) {
      if (isUniqueViolation(error) && membership.handle !== null) throw new ServicenetHandleTakenError(membership.handle);
      throw error;
    }
  }
}
