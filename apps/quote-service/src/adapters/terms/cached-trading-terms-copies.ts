import type { SubOrgTier } from '@pfs/contracts';
import { RecentReads, type PrismaTransactionHost } from '@pfs/persistence';
import { AccountHolders } from '../../application/ports/account-holders';
import { OrganizationTiers } from '../../application/ports/organization-tiers';
import type { AccountHolder } from '../../application/ports/trading-terms-directory';

/** Organizations, and accounts, whose terms one quote process keeps at once. */
const MAX_KEYS = 10_000;

/**
 * The tiers copy behind a short cache: every quote and GET /v1/fees read it, and it changes
 * rarely. TERMS_CACHE_MS bounds how long a change taken by another quote replica takes to reach
 * this one's prices; a change this process takes is seen at once.
 */
export class CachedOrganizationTiers extends OrganizationTiers {
  private readonly reads: RecentReads<SubOrgTier | null>;

  constructor(
    private readonly copy: OrganizationTiers,
    host: PrismaTransactionHost,
    ttlMs: number,
  ) {
    super();
    this.reads = new RecentReads(host, ttlMs, MAX_KEYS);
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

/**
 * The accounts copy behind a cache: every quote reads its account's row. A row is kept until
 * evicted, not for TERMS_CACHE_MS: who holds an account never changes, and the copy learns a
 * status only by asking the ledger, which this process does through `remember` (forgetting the
 * row), so a longer stay hides nothing the copy itself would show.
 */
export class CachedAccountHolders extends AccountHolders {
  private readonly reads: RecentReads<AccountHolder>;

  constructor(
    private readonly copy: AccountHolders,
    host: PrismaTransactionHost,
  ) {
    super();
    this.reads = new RecentReads(host, 0, MAX_KEYS);
  }

  find(accountId: string): Promise<AccountHolder | undefined> {
    return this.reads.read(accountId, () => this.copy.find(accountId));
  }

  async remember(holder: AccountHolder): Promise<void> {
    this.reads.forget(holder.accountId);
    await this.copy.remember(holder);
  }
}

/**
 * TERMS_CACHE_MS (default 250; 0 turns the caches off): how long a quote process reuses an
 * organization's tier read from its copy.
 */
export function termsCacheMs(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.TERMS_CACHE_MS ?? '250';
  if (!/^[0-9]{1,6}$/.test(text)) throw new Error(`TERMS_CACHE_MS must be a whole number of milliseconds (0 turns the cache off), not "${text}"`);
  return Number(text);
}
