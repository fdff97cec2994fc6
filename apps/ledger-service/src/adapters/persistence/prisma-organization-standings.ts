import { Injectable } from '@nestjs/common';
import type { OrganizationStanding, VerificationStatus } from '@pfs/contracts';
import { batchedReads, inKeyOrder, Prisma, PrismaTransactionHost } from '@pfs/persistence';
import { OrganizationStandings } from '../../application/ports/organization-standings';

interface StandingRow {
  verification_status: string;
  parent_organization_id: string | null;
  parent_holds_active_loa: boolean;
  referrer_organization_id: string | null;
}

/** `ledger.organization_standings`: one row per organization, replaced only by a newer sequence. */
@Injectable()
export class PrismaOrganizationStandings extends OrganizationStandings {
  // Read by every money command: those that arrive together share one statement.
  private readonly reads = batchedReads((ids: readonly string[]) => this.readStandings(ids), () => this.host.inTransaction);

  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  async apply(standing: OrganizationStanding, sequence: number): Promise<boolean> {
    return (await this.upsert(standing, sequence)) > 0;
  }

  find(organizationId: string): Promise<OrganizationStanding | null> {
    return this.reads(organizationId);
  }

  private async readStandings(ids: readonly string[]): Promise<Array<OrganizationStanding | null>> {
    const rows = await this.host.query<StandingRow & { organization_id: string }>(Prisma.sql`
      SELECT organization_id, verification_status, parent_organization_id, parent_holds_active_loa, referrer_organization_id
      FROM "ledger"."organization_standings" WHERE organization_id = ANY(${ids}::text[])`);
    return inKeyOrder(ids, rows, (row) => row.organization_id).map((row) => {
      if (!row) return null;
      return {
        organizationId: row.organization_id,
        verificationStatus: row.verification_status as VerificationStatus,
        parentOrganizationId: row.parent_organization_id,
        parentHoldsActiveLoa: row.parent_holds_active_loa,
        referrerOrganizationId: row.referrer_organization_id,
      };
    });
  }

  async remember(standing: OrganizationStanding): Promise<void> {
    await this.upsert(standing, null);
  }

  /**
   * With a sequence (an event): taken only when newer than the row's. Without (the owner's answer
   * now): always taken, keeping the row's sequence (0 for a first row), so any event numbered after
   * it still replaces the answer.
   */
  private upsert(standing: OrganizationStanding, sequence: number | null): Promise<number> {
    const s = standing;
    return this.host.client.$executeRaw`
      INSERT INTO "ledger"."organization_standings" AS o
        (organization_id, verification_status, parent_organization_id, parent_holds_active_loa, referrer_organization_id, sequence, updated_at)
      VALUES (${s.organizationId}, ${s.verificationStatus}, ${s.parentOrganizationId}, ${s.parentHoldsActiveLoa}, ${s.referrerOrganizationId}, COALESCE(${sequence}::int, 0), now())
      ON CONFLICT (organization_id) DO UPDATE SET
        verification_status = EXCLUDED.verification_status,
        parent_organization_id = EXCLUDED.parent_organization_id,
        parent_holds_active_loa = EXCLUDED.parent_holds_active_loa,
        referrer_organization_id = EXCLUDED.referrer_organization_id,
        sequence = COALESCE(${sequence}::int, o.sequence),
        updated_at = now()
      WHERE ${sequence}::int IS NULL OR o.sequence < EXCLUDED.sequence`;
  }
}
