import { createAccessTestKit, type AccessTestKit } from '../support/access-test-kit';
import { FixedClock, outboxRowsFor } from '../support/organization-test-kit';


describe('AcceptReferralInviteUseCase (real PostgreSQL)', () => {
  const clock = new FixedClock(new Date('2026-11-21T10:00:00.000Z'));
  let kit: AccessTestKit;

  beforeAll(() => {
    kit = createAccessTestKit({ clock });
  });

  afterAll(async () => {
    await kit.close();
  });

  const issue = async (referrer: string, email: string) => {
    clock.time = new Date('2026-11-21T10:00:00.000Z');
    return (await kit.createReferralInvite.execute({ referrerOrganizationId: referrer, email })).referralInvite;
  };

  it('creates a PENDING root organization referred by the inviter, with a key and organization.created; once', async () => {
    const referrer = await kit.rootOrganization('Referrer');
    const invite = await issue(referrer, `ada-${referrer}@example.com`);
    const command = { referrerOrganizationId: referrer, referralInviteId: invite.referralInviteId, email: invite.email.toUpperCase(), name: ' Ada ' };

    await expect(kit.acceptReferralInvite.execute({ ...command, email: `eve-${referrer}@example.com` })).rejects.toMatchObject({ code: 'forbidden' });
    const other = await kit.rootOrganization('Other');
    await expect(kit.acceptReferralInvite.execute({ ...command, referrerOrganizationId: other })).rejects.toMatchObject({ code: 'not_found' });

    const results = await Promise.allSettled([kit.acceptReferralInvite.execute(command), kit.acceptReferralInvite.execute(command)]);
    const won = results.filter((result) => result.status === 'fulfilled');
    expect(won).toHaveLength(1);
    expect(results.find((result) => result.status === 'rejected')).toMatchObject({ reason: { code: 'referral_invite_already_accepted' } });
    const { organization, apiKey } = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<AccessTestKit['acceptReferralInvite']['execute']>>>).value;
    expect(organization).toMatchObject({ name: 'Ada', email: invite.email, verificationStatus: 'PENDING', parentOrganizationId: null, referrerOrganizationId: referrer });
    expect(await kit.authenticate.execute({ keyHash: kit.hasher.hash(apiKey) })).toMatchObject({ organizationId: organization.organizationId });
    const events = await outboxRowsFor(kit.prisma, organization.organizationId);
    expect(events.map((event) => event.type)).toEqual(['organization.created', 'organization.standing.updated']);
    expect(events[1].payload).toMatchObject({ data: { verificationStatus: 'PENDING', parentOrganizationId: null, referrerOrganizationId: referrer } });
    await expect(kit.createReferralInvite.execute({ referrerOrganizationId: referrer, email: invite.email })).rejects.toMatchObject({
      code: 'referral_invite_already_accepted',
    });
  });

  it('answers not_found once the invite has expired', async () => {
    const referrer = await kit.rootOrganization('Referrer');
    const invite = await issue(referrer, `late-${referrer}@example.com`);
    clock.time = new Date('2026-11-28T10:00:00.000Z');
    await expect(
      kit.acceptReferralInvite.execute({ referrerOrganizationId: referrer, referralInviteId: invite.referralInviteId, email: invite.email, name: 'Late' }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});
