import { createAccessTestKit, type AccessTestKit } from '../support/access-test-kit';
import { FixedClock } from '../support/organization-test-kit';


describe('ListReferralInvitesUseCase (real PostgreSQL)', () => {
  const clock = new FixedClock(new Date('2026-11-21T10:00:00.000Z'));
  let kit: AccessTestKit;

  beforeAll(() => {
    kit = createAccessTestKit({ clock });
  });

  afterAll(async () => {
    await kit.close();
  });

  it('lists the referrer’s invites newest first, page by page, with PENDING, ACCEPTED and EXPIRED', async () => {
    const referrer = await kit.rootOrganization('Referrer');
    const stranger = await kit.rootOrganization('Stranger');
    const issue = async (day: number, second: number, who: string, email: string) => {
      clock.time = new Date(Date.UTC(2026, 10, day, 10, 0, second));
      return (await kit.createReferralInvite.execute({ referrerOrganizationId: who, email })).referralInvite;
    };
    const accepted = await issue(21, 1, referrer, `a-${referrer}@example.com`);
    const expired = await issue(21, 2, referrer, `b-${referrer}@example.com`);
    await issue(21, 3, stranger, `c-${referrer}@example.com`);
    await kit.acceptReferralInvite.execute({ referrerOrganizationId: referrer, referralInviteId: accepted.referralInviteId, email: accepted.email, name: 'Signed Up' });
    // b's 7 days end at 28 Nov 10:00:02.
    const pending = await issue(28, 4, referrer, `d-${referrer}@example.com`);

    const first = await kit.listReferralInvites.execute({ referrerOrganizationId: referrer, page: { limit: 2, cursor: null } });
    expect(first.data.map((item) => [item.referralInviteId, item.status])).toEqual([
      [pending.referralInviteId, 'PENDING'],
      [expired.referralInviteId, 'EXPIRED'],
    ]);
    expect(first.hasMore).toBe(true);
    const second = await kit.listReferralInvites.execute({ referrerOrganizationId: referrer, page: { limit: 2, cursor: first.nextCursor } });
    expect(second).toEqual({ data: [{ ...accepted, status: 'ACCEPTED' }], hasMore: false, nextCursor: null });
  });
});
