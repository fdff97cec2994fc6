import { Injectable } from '@nestjs/common';
import type { CursorPosition } from '@pfs/contracts';
import { newestFirstPage, PrismaTransactionHost, type Prisma } from '@pfs/persistence';
import { OrganizationRepository } from '../../application/ports/organization.repository';
import { Organization, type EntityType, type VerificationStatus } from '../../domain/organization';

type OrganizationRow = Prisma.OrganizationGetPayload<object>;

@Injectable()
export class PrismaOrganizationRepository extends OrganizationRepository {
  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  async insert(organization: Organization): Promise<void> {
    // Ids are fresh random values: a duplicate is a defect, so P2002 is left to fail loudly.
    await this.host.client.organization.create({
      data: {
        id: organization.id,
        name: organization.name,
        entityType: organization.entityType,
        country: organization.country,
        email: organization.email,
        verificationStatus: organization.verificationStatus,
        verificationReason: organization.verificationReason,
        parentOrganizationId: organization.parentOrganizationId,
        referrerOrganizationId: organization.referrerOrganizationId,
        primaryAccountId: organization.primaryAccountId,
        createdAt: organization.createdAt,
        updatedAt: organization.updatedAt,
      },
    });
  }

  async findById(organizationId: string): Promise<Organization | null> {
    const row = await this.host.client.organization.findUnique({ where: { id: organizationId } });
    return row ? toOrganization(row) : null;
  }

  async exists(organizationId: string): Promise<boolean> {
    // On every quote's pricing: raw SQL spares the query compiler.
    const rows = await this.host.client.$queryRaw<unknown[]>`SELECT 1 FROM "organization"."organizations" WHERE id = ${organizationId}`;
    return rows.length > 0;
  }

  async findByIdForUpdate(organizationId: string): Promise<Organization | null> {
    // Prisma has no SELECT … FOR UPDATE: lock first, then read the row through the model.
    await this.host.client.$queryRaw`SELECT id FROM "organization"."organizations" WHERE id = ${organizationId} FOR UPDATE`;
    return this.findById(organizationId);
  }

  async listClients(parentOrganizationId: string, after: CursorPosition | null, limit: number): Promise<Organization[]> {
    const page = newestFirstPage(after, limit);
    const rows = await this.host.client.organization.findMany({
      where: { parentOrganizationId, ...page.where },
      orderBy: page.orderBy,
      take: page.take,
    });
    return rows.map(toOrganization);
  }

  async saveVerification(organization: Organization): Promise<void> {
    await this.host.client.organization.update({
      where: { id: organization.id },
      data: {
        verificationStatus: organization.verificationStatus,
        verificationReason: organization.verificationReason,
        updatedAt: organization.updatedAt,
      },
    });
  }
}

function toOrganization(row: OrganizationRow): Organization {
  return new Organization(
    row.id,
    row.name,
    row.entityType as EntityType | null,
    row.country,
    row.email,
    row.verificationStatus as VerificationStatus,
    row.verificationReason,
    row.parentOrganizationId,
    row.referrerOrganizationId,
    row.primaryAccountId,
    row.createdAt,
    row.updatedAt,
  );
}
