import type { OrganizationStanding } from '@pfs/contracts';
import { RecentReads, type PrismaTransactionHost } from '@pfs/persistence';
import { OrganizationStandings } from '../../application/ports/organization-standings';

/** Organizations whose standing one ledger process keeps at once. */
const MAX_ORGANIZATIONS = 10_000;

/**
 * The standings copy behind a short cache: every money command reads its organization's
 * standing (a trade its earner's too), which changes rarely. STANDING_CACHE_MS bounds how long
 * a change taken by another ledger replica takes to reach this one's decisions.
 */
export class CachedOrganizationStandings extends OrganizationStandings {
  private readonly reads: RecentReads<OrganizationStanding | null>;

  constructor(
    private readonly copy: OrganizationStandings,
    host: PrismaTransactionHost,
    ttlMs: number,
  ) {
    super();
    this.reads = new RecentReads(host, ttlMs, MAX_ORGANIZATIONS);
  }

  async apply(standing: OrganizationStanding, sequence: number): Promise<boolean> {
    this.reads.forget(standing.organizationId);
    return this.copy.apply(standing, sequence);
  }

  async find(organizationId: string): Promise<OrganizationStanding | null> {
    // An organization the copy lacks is not kept: the owner is asked, and its answer remembered.
    return (await this.reads.read(organizationId, async () => (await this.copy.find(organizationId)) ?? undefined)) ?? null;
  }

  async remember(standing: OrganizationStanding): Promise<void> {
    this.reads.forget(standing.organizationId);
    await this.copy.remember(standing);
  }
}
