import { randomUUID } from 'node:crypto';
import { isolateQueues } from '@pfs/testing';
import { createAccessTestKit, type AccessTestKit } from '../../../../test/support/access-test-kit';
import { FixedClock } from '../../../../test/support/organization-test-kit';
import type { ListReferralInvitesUseCase } from '../list-referral-invites/list-referral-invites.use-case';
import type { CreateReferralInviteUseCase } from './create-referral-invite.use-case';

isolateQueues('org-create-referral-invite');

describe('CreateReferralInviteUseCase (real PostgreSQL)', () => {
  const clock = new FixedClock(new Date('2026-11-21T10:00:00.000Z'));
  let kit: AccessTestKit;
  let createInvite: CreateReferralInviteUseCase;
  let listInvites: ListReferralInvitesUseCase;

  beforeAll(() => {
    kit = createAccessTestKit({ clock });
    createInvite = kit.createReferralInvite;
    listInvites = kit.listReferralInvites;
  });

  afterAll(async () => {
    await kit.close();
  });

  it('issues for 7 days, renews the same invite, and lists it EXPIRED once past expiresAt', async () => {
    const referrer = await kit.rootOrganization('Referrer');
    const email = `ada-${randomUUID().slice(0, 8)}@example.com`;
    clock.time = new Date('2026-11-21T10:00:00.000Z');
    const first = await createInvite.execute({ referrerOrganizationId: referrer, email: ` ${email.toUpperCase()} ` });
    expect(first.created).toBe(true);
    expect(first.referralInvite).toMatchObject({ email, status: 'PENDING', expiresAt: '2026-11-28T10:00:00.000Z', createdAt: '2026-11-21T10:00:00.000Z' });
    expect((await kit.prisma.referralProgram.findUnique({ where: { organizationId: referrer } }))?.enabledAt.toISOString()).toBe('2026-11-21T10:00:00.000Z');

    clock.time = new Date('2026-11-30T00:00:00.000Z');
    const listed = await listInvites.execute({ referrerOrganizationId: referrer, page: { limit: 10, cursor: null } });
    expect(listed.data.map((invite) => invite.status)).toEqual(['EXPIRED']);

    const renewed = await createInvite.execute({ referrerOrganizationId: referrer, email });
    expect(renewed).toEqual({
      created: false,
      referralInvite: { ...first.referralInvite, status: 'PENDING', expiresAt: '2026-12-07T00:00:00.000Z' },
    });
    await expect(createInvite.execute({ referrerOrganizationId: referrer, email: 'nope' })).rejects.toMatchObject({ code: 'validation_error' });
  });

  it('creates exactly one invite when the same email races', async () => {
    const referrer = await kit.rootOrganization('Racer');
    const email = `race-${randomUUID().slice(0, 8)}@example.com`;
    const results = await Promise.all(Array.from({ length: 5 }, () => createInvite.execute({ referrerOrganizationId: referrer, email })));
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(new Set(results.map((result) => result.referralInvite.referralInviteId)).size).toBe(1);
  });
});
