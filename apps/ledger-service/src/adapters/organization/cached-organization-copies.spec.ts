import type { OrganizationStanding } from '@pfs/contracts';
import type { PrismaTransactionHost } from '@pfs/persistence';
import { OrganizationStandings } from '../../application/ports/organization-standings';
import { CachedOrganizationStandings } from './cached-organization-copies';

const standing = (verificationStatus: OrganizationStanding['verificationStatus']): OrganizationStanding => ({
  organizationId: 'org_1',
  verificationStatus,
  parentOrganizationId: null,
  parentHoldsActiveLoa: false,
  referrerOrganizationId: null,
});

/** The copy in memory, counting its reads; a read can be held until `release`. */
class CountingStandings extends OrganizationStandings {
  rows = new Map<string, OrganizationStanding>();
  reads = 0;
  held?: Promise<void>;

  async apply(next: OrganizationStanding): Promise<boolean> {
    this.rows.set(next.organizationId, next);
    return true;
  }

  async find(organizationId: string): Promise<OrganizationStanding | null> {
    this.reads += 1;
    const row = this.rows.get(organizationId) ?? null;
    await this.held;
    return row;
  }

  async remember(next: OrganizationStanding): Promise<void> {
    this.rows.set(next.organizationId, next);
  }
}

/** The unit of work as the cache sees it: whether one is open, and what runs once it commits. */
function fakeHost() {
  const committed: Array<() => void> = [];
  const host = {
    inTransaction: false,
    afterCommit: (callback: () => void) => committed.push(callback),
    commit: () => {
      host.inTransaction = false;
      for (const callback of committed.splice(0)) callback();
    },
  };
  return host;
}

describe('CachedOrganizationStandings', () => {
  it('reuses a read for its time, then reads the copy again', async () => {
    const copy = new CountingStandings();
    copy.rows.set('org_1', standing('APPROVED'));
    const cached = new CachedOrganizationStandings(copy, fakeHost() as unknown as PrismaTransactionHost, 30);
    expect(await cached.find('org_1')).toEqual(standing('APPROVED'));
    expect(await cached.find('org_1')).toEqual(standing('APPROVED'));
    expect(copy.reads).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 60));
    await cached.find('org_1');
    expect(copy.reads).toBe(2);
  });

  it('forgets an organization whose standing this process takes, at once and again once the change commits', async () => {
    const copy = new CountingStandings();
    copy.rows.set('org_1', standing('PENDING'));
    const host = fakeHost();
    const cached = new CachedOrganizationStandings(copy, host as unknown as PrismaTransactionHost, 60_000);
    expect((await cached.find('org_1'))?.verificationStatus).toBe('PENDING');

    // The event's transaction takes the change; a reader outside it still sees the committed row meanwhile.
    host.inTransaction = true;
    await cached.apply(standing('APPROVED'), 2);
    copy.rows.set('org_1', standing('PENDING'));
    host.inTransaction = false;
    expect((await cached.find('org_1'))?.verificationStatus).toBe('PENDING');
    copy.rows.set('org_1', standing('APPROVED'));
    host.commit();
    expect((await cached.find('org_1'))?.verificationStatus).toBe('APPROVED');

    await cached.remember(standing('ON_HOLD'));
    expect((await cached.find('org_1'))?.verificationStatus).toBe('ON_HOLD');
  });

  it('keeps no read that began before a change, nor one made inside a transaction, nor an organization the copy lacks', async () => {
    const copy = new CountingStandings();
    copy.rows.set('org_1', standing('PENDING'));
    const host = fakeHost();
    const cached = new CachedOrganizationStandings(copy, host as unknown as PrismaTransactionHost, 60_000);
    let release = () => {};
    copy.held = new Promise<void>((resolve) => (release = resolve));
    const early = cached.find('org_1');
    await cached.apply(standing('APPROVED'), 2);
    copy.held = undefined;
    release();
    expect((await early)?.verificationStatus).toBe('PENDING');
    expect((await cached.find('org_1'))?.verificationStatus).toBe('APPROVED');

    host.inTransaction = true;
    const reads = copy.reads;
    await cached.find('org_1');
    expect(copy.reads).toBe(reads + 1);
    host.inTransaction = false;

    expect(await cached.find('org_unknown')).toBeNull();
    expect(await cached.find('org_unknown')).toBeNull();
    expect(copy.reads).toBe(reads + 3);
  });
});
