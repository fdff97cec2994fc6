import type { SubOrgTier } from '@pfs/contracts';
import type { PrismaTransactionHost } from '@pfs/persistence';
import { AccountHolders } from '../../application/ports/account-holders';
import { OrganizationTiers } from '../../application/ports/organization-tiers';
import type { AccountHolder } from '../../application/ports/trading-terms-directory';
import { CachedAccountHolders, CachedOrganizationTiers, termsCacheMs } from './cached-trading-terms-copies';

const host = { inTransaction: false, afterCommit: () => {} } as unknown as PrismaTransactionHost;

describe('CachedOrganizationTiers', () => {
  it('keeps the default pricing (no tier) like a tier, but not an organization the copy has never heard of; a tier this process takes is seen at once', async () => {
    const tiers = new Map<string, SubOrgTier | null>([['org_default', null]]);
    let reads = 0;
    const copy = new (class extends OrganizationTiers {
      async apply(organizationId: string, tier: SubOrgTier | null): Promise<boolean> {
        tiers.set(organizationId, tier);
        return true;
      }
      async find(organizationId: string): Promise<SubOrgTier | null | undefined> {
        reads += 1;
        return tiers.get(organizationId);
      }
      async rememberIfAbsent(): Promise<void> {}
    })();
    const cached = new CachedOrganizationTiers(copy, host, 60_000);
    expect(await cached.find('org_default')).toBeNull();
    expect(await cached.find('org_default')).toBeNull();
    expect(await cached.find('org_new')).toBeUndefined();
    expect(await cached.find('org_new')).toBeUndefined();
    expect(reads).toBe(3);

    const vip: SubOrgTier = { key: 'vip', label: 'VIP', spreadBps: 30, referrerShareBps: 30 };
    await cached.apply('org_default', vip, 3);
    expect(await cached.find('org_default')).toEqual(vip);
  });
});

describe('CachedAccountHolders', () => {
  it('reuses an account’s row, forgets it when this process remembers a new answer, and keeps no account the copy lacks', async () => {
    const rows = new Map<string, AccountHolder>([['acct_1', { accountId: 'acct_1', organizationId: 'org_1', status: 'SUSPENDED' }]]);
    let reads = 0;
    const copy = new (class extends AccountHolders {
      async find(accountId: string): Promise<AccountHolder | undefined> {
        reads += 1;
        return rows.get(accountId);
      }
      async remember(holder: AccountHolder): Promise<void> {
        rows.set(holder.accountId, holder);
      }
    })();
    const cached = new CachedAccountHolders(copy, host);
    expect((await cached.find('acct_1'))?.status).toBe('SUSPENDED');
    expect((await cached.find('acct_1'))?.status).toBe('SUSPENDED');
    expect(await cached.find('acct_new')).toBeUndefined();
    expect(await cached.find('acct_new')).toBeUndefined();
    expect(reads).toBe(3);

    await cached.remember({ accountId: 'acct_1', organizationId: 'org_1', status: 'ACTIVE' });
    expect((await cached.find('acct_1'))?.status).toBe('ACTIVE');
  });

  it('keeps a row past TERMS_CACHE_MS: the copy changes only through this process asking the ledger', async () => {
    let reads = 0;
    const copy = new (class extends AccountHolders {
      async find(accountId: string): Promise<AccountHolder | undefined> {
        reads += 1;
        return { accountId, organizationId: 'org_1', status: 'ACTIVE' };
      }
      async remember(): Promise<void> {}
    })();
    const cached = new CachedAccountHolders(copy, host);
    await cached.find('acct_1');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await cached.find('acct_1');
    expect(reads).toBe(1);
  });
});

describe('termsCacheMs', () => {
  it('defaults to 250 ms, takes 0 to turn the cache off, and refuses anything else', () => {
    expect(termsCacheMs({})).toBe(250);
    expect(termsCacheMs({ TERMS_CACHE_MS: '0' })).toBe(0);
    expect(() => termsCacheMs({ TERMS_CACHE_MS: '-1' })).toThrow(/TERMS_CACHE_MS/);
    expect(() => termsCacheMs({ TERMS_CACHE_MS: '1s' })).toThrow(/TERMS_CACHE_MS/);
  });
});
