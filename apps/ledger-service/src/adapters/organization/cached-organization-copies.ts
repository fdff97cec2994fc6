import type { OrganizationStanding, SubOrgTier } from '@pfs/contracts';
import type { PrismaTransactionHost } from '@pfs/persistence';
import { LRUCache } from 'lru-cache';
import { OrganizationStandings } from '../../application/ports/organization-standings';
import { OrganizationTiers } from '../../application/ports/organization-tiers';

/** Organizations whose standing and tier one ledger process keeps at once. */
const MAX_ORGANIZATIONS = 10_000;

/**
 * What was read from a copy, reused for `ttlMs`. Every change this process makes to the copy
 * forgets its organization, once now and once more after the commit, and a read that began
 * before a change is not kept: only another replica's change can be missed, and only for `ttlMs`.
 * Reads inside a transaction always go to the copy.
 */
class RecentReads<T> {
  private readonly cache: LRUCache<string, { value: T }>;
  private generation = 0;

  constructor(
    private readonly host: PrismaTransactionHost,
    ttlMs: number,
  ) {
    this.cache = new LRUCache({ max: MAX_ORGANIZATIONS, ttl: ttlMs });
  }

  async read(organizationId: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    if (this.host.inTransaction) return load();
    const hit = this.cache.get(organizationId);
    if (hit) return hit.value;
    const generation = this.generation;
    const value = await load();
    if (value !== undefined && generation === this.generation) this.cache.set(organizationId, { value });
    return value;
  }

  forget(organizationId: string): void {
    const forget = () => {
      this.generation += 1;
      this.cache.delete(organizationId);
    };
    forget();
    if (this.host.inTransaction) this.host.afterCommit(forget);
  }
}

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
    this.reads = new RecentReads(host, ttlMs);
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

/** The tiers copy behind the same short cache: every quote's pricing reads it. */
export class CachedOrganizationTiers extends OrganizationTiers {
  private readonly reads: RecentReads<SubOrgTier | null>;

  constructor(
    private readonly copy: OrganizationTiers,
    host: PrismaTransactionHost,
    ttlMs: number,
  ) {
    super();
    this.reads = new RecentReads(host, ttlMs);
  }

  async apply(organizationId: string, tier: SubOrgTier | null, sequence: number): Promise<boolean> {
    this.reads.forget(organizationId);
    return this.copy.apply(organizationId, tier, sequence);
  }

  find(organizationId: string): Promise<SubOrgTier | null | undefined> {
    return this.reads.read(organizationId, () => this.copy.find(organizationId));
  }

  async rememberIfAbsent(organizationId: string, tier: SubOrgTier | null): Promise<void> {
    this.reads.forget(organizationId);
    await this.copy.rememberIfAbsent(organizationId, tier);
  }
}
