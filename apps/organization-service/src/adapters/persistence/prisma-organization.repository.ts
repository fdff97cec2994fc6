import { Injectable } from '@nestjs/common';
import { PrismaTransactionHost, type Prisma } from '@pfs/persistence';
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
    const row = await this.host.client.organization.findUnique({ where: { id: organizationId }, select: { id: true } });
    return row !== null;
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
