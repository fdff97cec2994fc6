import { Injectable } from '@nestjs/common';
import type { CursorPosition } from '@pfs/contracts';
import { newestFirstPage, PrismaTransactionHost, type Prisma } from '@pfs/persistence';
import { AuthorizationRepository } from '../../application/ports/authorization.repository';
import { Authorization } from '../../domain/authorization';
import { AuthorizationNotFoundError } from '../../domain/organization-errors';

type AuthorizationRow = Prisma.OrganizationAuthorizationGetPayload<object>;

@Injectable()
export class PrismaAuthorizationRepository extends AuthorizationRepository {
  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  async hasActiveAuthorization(grantorOrganizationId: string, granteeOrganizationId: string): Promise<boolean> {
    const row = await this.host.client.organizationAuthorization.findFirst({
      where: { grantorOrganizationId, granteeOrganizationId, revokedAt: null },
      select: { id: true },
    });
    return row !== null;
  }

  async findActive(grantorOrganizationId: string, granteeOrganizationId: string): Promise<Authorization | null> {
    const row = await this.host.client.organizationAuthorization.findFirst({
      where: { grantorOrganizationId, granteeOrganizationId, revokedAt: null },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    return row ? toAuthorization(row) : null;
  }

  async findById(authorizationId: string): Promise<Authorization | null> {
    const row = await this.host.client.organizationAuthorization.findUnique({ where: { id: authorizationId } });
    return row ? toAuthorization(row) : null;
  }

  async insert(authorization: Authorization): Promise<void> {
    // Ids are fresh random values and both organizations were checked: a failure is a defect.
    await this.host.client.organizationAuthorization.create({
      data: {
        id: authorization.id,
        grantorOrganizationId: authorization.grantorOrganizationId,
        granteeOrganizationId: authorization.granteeOrganizationId,
        createdAt: authorization.createdAt,
        revokedAt: authorization.revokedAt,
      },
    });
  }

  async listInvolving(organizationId: string, after: CursorPosition | null, limit: number): Promise<Authorization[]> {
    const parties: Prisma.OrganizationAuthorizationWhereInput = {
      OR: [{ grantorOrganizationId: organizationId }, { granteeOrganizationId: organizationId }],
    };
    const page = newestFirstPage(after, limit);
    const rows = await this.host.client.organizationAuthorization.findMany({
      where: { AND: [parties, page.where] },
      orderBy: page.orderBy,
      take: page.take,
    });
    return rows.map(toAuthorization);
  }

  async saveRevocation(authorization: Authorization): Promise<Authorization> {
    const db = this.host.client;
    // Only an active authorization is stamped, so a concurrent revocation keeps its earlier time.
    await db.organizationAuthorization.updateMany({
      where: { id: authorization.id, revokedAt: null },
      data: { revokedAt: authorization.revokedAt },
    });
    const row = await db.organizationAuthorization.findUnique({ where: { id: authorization.id } });
    if (!row) throw new AuthorizationNotFoundError(authorization.id);
    return toAuthorization(row);
  }
}

function toAuthorization(row: AuthorizationRow): Authorization {
  return new Authorization(row.id, row.grantorOrganizationId, row.granteeOrganizationId, row.createdAt, row.revokedAt);
}
