import { Clock } from '@pfs/contracts';
import { createTierTestKit } from '../support/tier-test-kit';
import type { AssignSubOrgTierUseCase } from '../../src/application/use-cases/assign-sub-org-tier/assign-sub-org-tier.use-case';
import type { GetEffectiveSubOrgTierUseCase } from '../../src/application/use-cases/get-effective-sub-org-tier/get-effective-sub-org-tier.use-case';


/** A clock the test moves, so assignments land at known times. */
class SteppedClock extends Clock {
  current = new Date('2026-11-21T10:00:00.000Z');
  now(): Date {
    return new Date(this.current);
  }
}

describe('GetEffectiveSubOrgTierUseCase (real PostgreSQL)', () => {
  let kit: ReturnType<typeof createTierTestKit>;
  let clock: SteppedClock;
  let assign: AssignSubOrgTierUseCase;
  let effective: GetEffectiveSubOrgTierUseCase;

  beforeAll(() => {
    clock = new SteppedClock();
    kit = createTierTestKit({ clock });
    assign = kit.assignTier;
    effective = kit.effectiveTier;
  });

  afterAll(async () => {
    await kit.close();
  });

  it('reads the tier in force at each time: none, then vip, then preferred, then removed', async () => {
    const broker = await kit.rootOrganization('Broker');
    const client = await kit.clientOf(broker);
    clock.current = new Date('2026-11-21T10:00:00.000Z');
    await assign.execute({ callerOrganizationId: broker, organizationId: client, tierKey: 'vip' });
    clock.current = new Date('2026-11-21T11:00:00.000Z');
    await assign.execute({ callerOrganizationId: broker, organizationId: client, tierKey: 'preferred' });
    clock.current = new Date('2026-11-21T12:00:00.000Z');
    await assign.execute({ callerOrganizationId: broker, organizationId: client, tierKey: null });

    const at = async (time: string) => (await effective.execute({ organizationId: client, at: time }))?.key ?? null;
    expect(await at('2026-11-21T09:59:59.999Z')).toBeNull();
    expect(await effective.execute({ organizationId: client, at: '2026-11-21T10:00:00.000Z' })).toEqual({
      key: 'vip',
      label: 'VIP',
      spreadBps: 30,
      referrerShareBps: 30,
    });
    expect(await at('2026-11-21T10:59:59.999Z')).toBe('vip');
    expect(await at('2026-11-21T11:30:00.000Z')).toBe('preferred');
    expect(await at('2026-11-21T12:00:00.000Z')).toBeNull();
    // Without `at`, now: the removal is in force.
    clock.current = new Date('2026-11-21T13:00:00.000Z');
    expect(await effective.execute({ organizationId: client })).toBeNull();
  });

  it('uses the later of two assignments made in the same millisecond', async () => {
    const broker = await kit.rootOrganization('Broker');
    const client = await kit.clientOf(broker);
    clock.current = new Date('2026-11-21T10:00:00.000Z');
    await assign.execute({ callerOrganizationId: broker, organizationId: client, tierKey: 'standard' });
    await assign.execute({ callerOrganizationId: broker, organizationId: client, tierKey: 'vip' });
    expect((await effective.execute({ organizationId: client }))?.key).toBe('vip');
  });

  it('refuses an unknown organization and a malformed time', async () => {
    await expect(effective.execute({ organizationId: `org_${'0'.repeat(32)}` })).rejects.toMatchObject({ code: 'organization_not_found' });
    const broker = await kit.rootOrganization('Broker');
    await expect(effective.execute({ organizationId: broker, at: 'yesterday' })).rejects.toMatchObject({ code: 'invalid_request' });
    expect(await effective.execute({ organizationId: broker })).toBeNull();
  });
});
