import { randomUUID } from 'node:crypto';
import { lockWaiterAppears } from '@pfs/testing';
import { createAccessTestKit, type AccessTestKit } from '../support/access-test-kit';
import { FixedClock } from '../support/organization-test-kit';
import type { ListReferralInvitesUseCase } from '../../src/application/use-cases/list-referral-invites/list-referral-invites.use-case';
import type { CreateReferralInviteUseCase } from '../../src/application/use-cases/create-referral-invite/create-referral-invite.use-case';


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
    expect((await kit.prisma.referralProgram.findUnique({ where: { organizationId: referrer } }))?.enabledAt?.toISOString()).toBe('2026-11-21T10:00:00.000Z');

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

  it('waits for a sign-up in progress on the same invite, then answers 409 instead of renewing it', async () => {
    const referrer = await kit.rootOrganization('Race with sign-up');
    const email = `signup-${randomUUID().slice(0, 8)}@example.com`;
    const { referralInvite } = await createInvite.execute({ referrerOrganizationId: referrer, email });
    let renewal: Promise<unknown> | undefined;
    // A sign-up holds the invite's row; the renewal starts meanwhile and must wait for it.
    await kit.prisma.$transaction(
      async (db) => {
        await db.$queryRaw`SELECT id FROM "organization"."referral_invites" WHERE id = ${referralInvite.referralInviteId} FOR UPDATE`;
        renewal = createInvite.execute({ referrerOrganizationId: referrer, email }).catch((error: unknown) => error);
        await lockWaiterAppears(kit.config.databaseUrl);
        await db.referralInvite.update({
          where: { id: referralInvite.referralInviteId },
          data: { acceptedAt: clock.now(), acceptedOrganizationId: 'org_ffffffffffffffffffffffffffff0001' },
        });
      },
      { timeout: 10000 },
    );
    expect(await renewal).toMatchObject({ code: 'referral_invite_already_accepted' });
  });

  it('creates exactly one invite when the same email races', async () => {
    const referrer = await kit.rootOrganization('Racer');
    const email = `race-${randomUUID().slice(0, 8)}@example.com`;
    const results = await Promise.all(Array.from({ length: 5 }, () => createInvite.execute({ referrerOrganizationId: referrer, email })));
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(new Set(results.map((result) => result.referralInvite.referralInviteId)).size).toBe(1);
  });

  it('refuses to issue or renew with forbidden while the operator has suspended referrals, changing nothing; resuming lifts it', async () => {
    const referrer = await kit.rootOrganization('Suspended referrer');
    const email = `grace-${randomUUID().slice(0, 8)}@example.com`;
    clock.time = new Date('2026-11-21T10:00:00.000Z');
    const issued = await createInvite.execute({ referrerOrganizationId: referrer, email });

    clock.time = new Date('2026-11-22T10:00:00.000Z');
    expect(await kit.suspendReferrals.execute({ organizationId: referrer })).toEqual({
      organizationId: referrer,
      enabledAt: '2026-11-21T10:00:00.000Z',
      suspendedAt: '2026-11-22T10:00:00.000Z',
    });
    const before = await kit.prisma.referralInvite.findMany({ where: { referrerOrganizationId: referrer } });
    for (const attempt of [email, `other-${email}`]) {
      await expect(createInvite.execute({ referrerOrganizationId: referrer, email: attempt })).rejects.toMatchObject({
        name: 'ReferralsSuspendedError',
        code: 'forbidden',
      });
    }
    expect(await kit.prisma.referralInvite.findMany({ where: { referrerOrganizationId: referrer } })).toEqual(before);
    // The link already issued still works: the customer was promised a sign-up.
    const accepted = await kit.acceptReferralInvite.execute({
      referrerOrganizationId: referrer,
      referralInviteId: issued.referralInvite.referralInviteId,
      email,
      name: 'Grace',
    });
    expect(accepted.organization.referrerOrganizationId).toBe(referrer);

    // Suspending again keeps the first time; resuming lets the next invite through.
    clock.time = new Date('2026-11-23T10:00:00.000Z');
    expect((await kit.suspendReferrals.execute({ organizationId: referrer })).suspendedAt).toBe('2026-11-22T10:00:00.000Z');
    expect(await kit.resumeReferrals.execute({ organizationId: referrer })).toEqual({ organizationId: referrer, enabledAt: '2026-11-21T10:00:00.000Z', suspendedAt: null });
    expect((await createInvite.execute({ referrerOrganizationId: referrer, email: `other-${email}` })).created).toBe(true);
  });

  it('a suspension before the first invite keeps referrals off until resumed', async () => {
    const referrer = await kit.rootOrganization('Never referred');
    expect((await kit.suspendReferrals.execute({ organizationId: referrer })).enabledAt).toBeNull();
    await expect(createInvite.execute({ referrerOrganizationId: referrer, email: 'x@example.com' })).rejects.toMatchObject({ code: 'forbidden' });
    expect(await kit.prisma.referralProgram.findUnique({ where: { organizationId: referrer } })).toMatchObject({ enabledAt: null, suspendedAt: expect.any(Date) });
    await kit.resumeReferrals.execute({ organizationId: referrer });
    await createInvite.execute({ referrerOrganizationId: referrer, email: 'x@example.com' });
    expect((await kit.prisma.referralProgram.findUnique({ where: { organizationId: referrer } }))?.enabledAt).toEqual(clock.time);
  });

  it('answers organization_not_found to suspending or resuming an unknown organization', async () => {
    for (const useCase of [kit.suspendReferrals, kit.resumeReferrals]) {
      await expect(useCase.execute({ organizationId: 'org_ffffffffffffffffffffffffffff0000' })).rejects.toMatchObject({ code: 'organization_not_found' });
    }
  });
});
