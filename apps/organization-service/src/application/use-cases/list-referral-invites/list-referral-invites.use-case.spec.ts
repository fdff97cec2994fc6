import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('ListReferralInvitesUseCase (in memory)', () => {
  let org: OrganizationInMemory;

  beforeEach(() => {
    org = organizationInMemory();
  });

  it('lists the referrer’s invites newest first, page by page, with PENDING, ACCEPTED and EXPIRED as of now', async () => {
    const referrer = (await org.root('Referrer')).organizationId;
    const stranger = (await org.root('Stranger')).organizationId;
    const issue = async (day: number, second: number, who: string, email: string) => {
      org.clock.set(new Date(Date.UTC(2026, 10, day, 10, 0, second)));
      return (await org.createReferralInvite.execute({ referrerOrganizationId: who, email })).referralInvite;
    };
    const accepted = await issue(21, 1, referrer, 'a@example.com');
    const expired = await issue(21, 2, referrer, 'b@example.com');
    await issue(21, 3, stranger, 'c@example.com');
    await org.acceptReferralInvite.execute({ referrerOrganizationId: referrer, referralInviteId: accepted.referralInviteId, email: accepted.email, name: 'Signed Up' });
    const pending = await issue(28, 4, referrer, 'd@example.com');

    const first = await org.listReferralInvites.execute({ referrerOrganizationId: referrer, page: { limit: 2, cursor: null } });
    expect(first.data.map((item) => [item.referralInviteId, item.status])).toEqual([
      [pending.referralInviteId, 'PENDING'],
      [expired.referralInviteId, 'EXPIRED'],
    ]);
    expect(first.hasMore).toBe(true);
    expect(await org.listReferralInvites.execute({ referrerOrganizationId: referrer, page: { limit: 2, cursor: first.nextCursor } })).toEqual({
      data: [{ ...accepted, status: 'ACCEPTED' }],
      hasMore: false,
      nextCursor: null,
    });
  });

  it('is empty for a referrer without invites and refuses another list’s cursor with invalid_request', async () => {
    const referrer = (await org.root('Referrer')).organizationId;
    expect(await org.listReferralInvites.execute({ referrerOrganizationId: referrer, page: { limit: 25, cursor: null } })).toEqual({ data: [], hasMore: false, nextCursor: null });
    const foreign = org.cursors.encode('organizations', { createdAt: '2026-11-21T10:00:00.000Z', id: referrer });
    await expect(org.listReferralInvites.execute({ referrerOrganizationId: referrer, page: { limit: 25, cursor: foreign } })).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
