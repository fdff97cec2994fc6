import { Injectable } from '@nestjs/common';
import type { CursorPosition } from '@pfs/contracts';
import { newestFirstPage, PrismaTransactionHost, type Prisma } from '@pfs/persistence';
import { ReferralInviteRepository } from '../../application/ports/referral-invite.repository';
import { ReferralInvite } from '../../domain/referral-invite';

type ReferralInviteRow = Prisma.ReferralInviteGetPayload<object>;

@Injectable()
export class PrismaReferralInviteRepository extends ReferralInviteRepository {
  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  async findByEmailForUpdate(referrerOrganizationId: string, email: string): Promise<ReferralInvite | null> {
    await this.host.client.$queryRaw`SELECT id FROM "organization"."referral_invites"
      WHERE referrer_organization_id = ${referrerOrganizationId} AND email = ${email} FOR UPDATE`;
    const row = await this.host.client.referralInvite.findUnique({
      where: { referrerOrganizationId_email: { referrerOrganizationId, email } },
    });
    return row ? toReferralInvite(row) : null;
  }

  async findByIdForUpdate(referralInviteId: string): Promise<ReferralInvite | null> {
    await this.host.client.$queryRaw`SELECT id FROM "organization"."referral_invites" WHERE id = ${referralInviteId} FOR UPDATE`;
    const row = await this.host.client.referralInvite.findUnique({ where: { id: referralInviteId } });
    return row ? toReferralInvite(row) : null;
  }

  async insert(invite: ReferralInvite): Promise<void> {
    // Callers lock the referrer first, so (referrer, email) cannot race: P2002 would be a defect.
    await this.host.client.referralInvite.create({
      data: {
        id: invite.id,
        referrerOrganizationId: invite.referrerOrganizationId,
        email: invite.email,
        expiresAt: invite.expiresAt,
        acceptedAt: invite.acceptedAt,
        acceptedOrganizationId: invite.acceptedOrganizationId,
        createdAt: invite.createdAt,
      },
    });
  }

  async saveRenewal(invite: ReferralInvite): Promise<void> {
    await this.host.client.referralInvite.update({ where: { id: invite.id }, data: { expiresAt: invite.expiresAt } });
  }

  async saveAcceptance(invite: ReferralInvite): Promise<void> {
    await this.host.client.referralInvite.update({
      where: { id: invite.id },
      data: { acceptedAt: invite.acceptedAt, acceptedOrganizationId: invite.acceptedOrganizationId },
    });
  }

  async listByReferrer(referrerOrganizationId: string, after: CursorPosition | null, limit: number): Promise<ReferralInvite[]> {
    const page = newestFirstPage(after, limit);
    const rows = await this.host.client.referralInvite.findMany({
      where: { referrerOrganizationId, ...page.where },
      orderBy: page.orderBy,
      take: page.take,
    });
    return rows.map(toReferralInvite);
  }
}

function toReferralInvite(row: ReferralInviteRow): ReferralInvite {
  return new ReferralInvite(
    row.id,
    row.referrerOrganizationId,
    row.email,
    row.expiresAt,
    row.acceptedAt,
    row.acceptedOrganizationId,
    row.createdAt,
  );
}
