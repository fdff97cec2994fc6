import { DomainError } from '@pfs/contracts';
import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('AcceptReferralInviteUseCase (in memory)', () => {
  let org: OrganizationInMemory;
  let referrer: string;
  let inviteId: string;

  beforeEach(async () => {
    org = organizationInMemory();
    referrer = (await org.root('Referrer')).organizationId;
    inviteId = (await org.createReferralInvite.execute({ referrerOrganizationId: referrer, email: 'ada@example.com' })).referralInvite.referralInviteId;
  });

  const accept = (override: Partial<Parameters<OrganizationInMemory['acceptReferralInvite']['execute']>[0]> = {}) =>
    org.acceptReferralInvite.execute({ referrerOrganizationId: referrer, referralInviteId: inviteId, email: ' ADA@example.com ', name: ' Ada ', ...override });
  const counts = () => ({ organizations: org.organizations.rows.size, keys: org.apiKeys.rows.size, events: org.outbox.events.length });

  it('creates a PENDING root organization referred by the inviter, with a working key, and appends organization.created', async () => {
    const { organization, apiKey } = await accept();
    expect(organization).toMatchObject({ name: 'Ada', email: 'ada@example.com', verificationStatus: 'PENDING', parentOrganizationId: null, referrerOrganizationId: referrer });
    expect(await org.authenticateApiKey.execute({ keyHash: org.hasher.hash(apiKey) })).toMatchObject({ organizationId: organization.organizationId });
    expect(org.outbox.dataOf('organization.created').at(-1)).toEqual({
      organizationId: organization.organizationId,
      primaryAccountId: organization.primaryAccountId,
      name: 'Ada',
      parentOrganizationId: null,
      referrerOrganizationId: referrer,
      createdAt: org.clock.now().toISOString(),
    });
    expect(org.invites.rows.get(inviteId)?.acceptedOrganizationId).toBe(organization.organizationId);
  });

  it('opens the primary account on the ledger after the sign-up has committed, then answers what the transaction returned', async () => {
    const at: Array<{ stored: boolean; inTransaction: boolean }> = [];
    org.primaryAccounts.onRequest = ({ organizationId }) => at.push({ stored: org.organizations.rows.has(organizationId), inTransaction: org.unitOfWork.inTransaction });
    const run = jest.spyOn(org.unitOfWork, 'run');

    const signedUp = await accept();

    expect(org.primaryAccounts.opened.at(-1)).toEqual({ organizationId: signedUp.organization.organizationId, accountId: signedUp.organization.primaryAccountId });
    expect(at.at(-1)).toEqual({ stored: true, inTransaction: false });
    expect(signedUp).toBe(await run.mock.results[0].value);
  });

  it('fails with the ledger’s error when it cannot open the account; the sign-up and its event stay, so the event opens it', async () => {
    const unavailable = new DomainError('internal_error', 'The ledger service is unavailable; try again shortly.');
    org.primaryAccounts.failWith = unavailable;
    await expect(accept()).rejects.toBe(unavailable);
    const organizationId = org.invites.rows.get(inviteId)?.acceptedOrganizationId;
    expect(organizationId).toEqual(expect.stringMatching(/^org_/));
    expect(org.outbox.dataOf('organization.created').at(-1)).toMatchObject({ organizationId });
    expect(org.primaryAccounts.opened.map((account) => account.organizationId)).not.toContain(organizationId);
  });

  it('answers referral_invite_already_accepted to a second sign-up and records nothing', async () => {
    await accept();
    const before = counts();
    await expect(accept()).rejects.toMatchObject({ code: 'referral_invite_already_accepted' });
    expect(counts()).toEqual(before);
  });

  it('answers forbidden to another email and records nothing', async () => {
    const before = counts();
    await expect(accept({ email: 'eve@example.com' })).rejects.toMatchObject({ code: 'forbidden' });
    expect(counts()).toEqual(before);
  });

  it('answers not_found for another referrer’s invite and for an expired one, recording nothing', async () => {
    const other = (await org.root('Other')).organizationId;
    const before = counts();
    await expect(accept({ referrerOrganizationId: other })).rejects.toMatchObject({ code: 'not_found' });
    org.clock.advance(7 * 24 * 3600 * 1000);
    await expect(accept()).rejects.toMatchObject({ code: 'not_found' });
    expect(counts()).toEqual(before);
  });
});
