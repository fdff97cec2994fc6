import { Injectable } from '@nestjs/common';
import type { SubOrgTier } from '@pfs/contracts';
import { batchedReads, inKeyOrder, Prisma, PrismaTransactionHost } from '@pfs/persistence';
import { OrganizationTiers } from '../../application/ports/organization-tiers';

interface TierRow {
  organization_id: string;
  tier_key: string | null;
  tier_label: string | null;
  spread_bps: number | null;
  referrer_share_bps: number | null;
}

/** `quote.organization_tiers`: one row per organization, replaced only by a newer sequence. */
@Injectable()
export class PrismaOrganizationTiers extends OrganizationTiers {
  // Read by every quote: those that arrive together share one statement.
  private readonly reads = batchedReads((ids: readonly string[]) => this.readTiers(ids), () => this.host.inTransaction);

  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  async apply(organizationId: string, tier: SubOrgTier | null, sequence: number): Promise<boolean> {
    const t = tier;
    const taken = await this.host.client.$executeRaw`
      INSERT INTO "quote"."organization_tiers" AS o (organization_id, tier_key, tier_label, spread_bps, referrer_share_bps, sequence, updated_at)
      VALUES (${organizationId}, ${t?.key ?? null}, ${t?.label ?? null}, ${t?.spreadBps ?? null}::int, ${t?.referrerShareBps ?? null}::int, ${sequence}::int, now())
      ON CONFLICT (organization_id) DO UPDATE SET
        tier_key = EXCLUDED.tier_key, tier_label = EXCLUDED.tier_label, spread_bps = EXCLUDED.spread_bps,
        referrer_share_bps = EXCLUDED.referrer_share_bps, sequence = EXCLUDED.sequence, updated_at = now()
      WHERE o.sequence < EXCLUDED.sequence`;
    return taken > 0;
  }

  find(organizationId: string): Promise<SubOrgTier | null | undefined> {
    return this.reads(organizationId);
  }

  /** Per organization: its tier, null for none, undefined when the copy has no row for it. */
  private async readTiers(ids: readonly string[]): Promise<Array<SubOrgTier | null | undefined>> {
    const rows = await this.host.query<TierRow>(Prisma.sql`
      SELECT organization_id, tier_key, tier_label, spread_bps, referrer_share_bps FROM "quote"."organization_tiers" WHERE organization_id = ANY(${ids}::text[])`);
    return inKeyOrder(ids, rows, (row) => row.organization_id).map((row) => {
      if (!row) return undefined;
      if (row.tier_key === null || row.tier_label === null || row.spread_bps === null || row.referrer_share_bps === null) return null;
      return { key: row.tier_key, label: row.tier_label, spreadBps: row.spread_bps, referrerShareBps: row.referrer_share_bps };
    });
  }

  async rememberIfAbsent(organizationId: string, tier: SubOrgTier | null): Promise<void> {
    const t = tier;
    await this.host.client.$executeRaw`
      INSERT INTO "quote"."organization_tiers" (organization_id, tier_key, tier_label, spread_bps, referrer_share_bps, sequence, updated_at)
      VALUES (${organizationId}, ${t?.key ?? null}, ${t?.label ?? null}, ${t?.spreadBps ?? null}::int, ${t?.referrerShareBps ?? null}::int, 0, now())
      ON CONFLICT (organization_id) DO NOTHING`;
  }
}
