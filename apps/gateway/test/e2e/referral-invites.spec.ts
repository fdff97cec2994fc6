import { randomUUID } from 'node:crypto';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { eventually, isolateQueues, testDatabaseUrl } from '@pfs/testing';
import { expectError, send, type Answer, type RequestOptions } from '../support/http-client';
import { startE2eStack, type CreatedOrganization, type E2eStack } from './support/e2e-stack';

const queuePrefix = isolateQueues('gw-e2e-referrals');

interface ReferralInvite {
  object: 'referral_invite';
  referralInviteId: string;
  email: string;
  url: string;
  status: 'PENDING' | 'ACCEPTED' | 'EXPIRED';
  expiresAt: string;
  createdAt: string;
}

interface SignUp {
  organization: {
    organizationId: string;
    email: string | null;
    verificationStatus: string;
    parentOrganizationId: string | null;
    referrerOrganizationId: string | null;
    primaryAccountId: string;
    name: string;
  };
  apiKey: string;
}

interface List<T> {
  object: 'list';
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;
const uniqueEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;

/* Referral invites end to end: gateway → organization service → PostgreSQL, the ledger opening accounts. */
describe('referral invites end to end', () => {
  let e2e: E2eStack;
  let prisma: PrismaClient;
  let referrer: CreatedOrganization;
  let other: CreatedOrganization;

  const call = (path: string, options?: RequestOptions): Promise<Answer> => send(e2e.baseUrl, path, options);
  const invite = (key: string, email: string) => call('/v1/referral-invites', { method: 'POST', key, body: { email } });
  const accept = (key: string, inviteId: string, body: Record<string, unknown>) =>
    call(`/v1/sandbox/referral-invites/${inviteId}/accept`, { method: 'POST', key, body });

  beforeAll(async () => {
    e2e = await startE2eStack(queuePrefix);
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 2, applicationName: 'gateway-e2e-referrals' });
    [referrer, other] = await Promise.all([e2e.createOrganization('e2e referrer'), e2e.createOrganization('e2e other')]);
  }, 120000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await e2e?.stop();
  }, 60000);

  it('issues an invite with a normalized email and switches referrals on; asking again renews it', async () => {
    const email = uniqueEmail('ada');
    expect(await prisma.referralProgram.findUnique({ where: { organizationId: referrer.organizationId } })).toBeNull();
    const before = Date.now();
    const first = await invite(referrer.apiKey, `  ${email.toUpperCase()} `);
    expect(first.status).toBe(201);
    const issued = first.json<ReferralInvite>();
    expect(issued).toEqual({
      object: 'referral_invite',
      referralInviteId: expect.stringMatching(/^refinv_[0-9a-f]{32}$/),
      email,
      url: `https://sandbox.partner-finance.example/signup?invite=${issued.referralInviteId}`,
      status: 'PENDING',
      expiresAt: expect.any(String),
      createdAt: expect.any(String),
    });
    const lifetime = Date.parse(issued.expiresAt) - Date.parse(issued.createdAt);
    expect(lifetime).toBe(SEVEN_DAYS_MS);
    expect(Date.parse(issued.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    const program = await prisma.referralProgram.findUnique({ where: { organizationId: referrer.organizationId } });
    expect(program).not.toBeNull();

    await new Promise((resolve) => setTimeout(resolve, 20));
    const again = await invite(referrer.apiKey, email);
    expect(again.status).toBe(200);
    const renewed = again.json<ReferralInvite>();
    expect(renewed).toMatchObject({ referralInviteId: issued.referralInviteId, url: issued.url, email, createdAt: issued.createdAt, status: 'PENDING' });
    expect(Date.parse(renewed.expiresAt)).toBeGreaterThan(Date.parse(issued.expiresAt));
    // The switch keeps its first time.
    expect(await prisma.referralProgram.findUnique({ where: { organizationId: referrer.organizationId } })).toEqual(program);

    // Another referrer's invite for the same email is its own.
    const theirs = (await invite(other.apiKey, email)).json<ReferralInvite>();
    expect(theirs.referralInviteId).not.toBe(issued.referralInviteId);
  });

  it('answers validation_error for a malformed body', async () => {
    for (const body of [{}, { email: 'not-an-email' }, { email: 42 }, { email: 'a@example.com', extra: true }]) {
      const answer = await call('/v1/referral-invites', { method: 'POST', key: referrer.apiKey, body });
      expectError(answer, 400, 'validation_error');
    }
    expectError(await invite(referrer.apiKey, 'x'), 400, 'validation_error');
  });

  it('signs up through the invite: a PENDING root organization referred by the inviter, with its account and key; then 409', async () => {
    const email = uniqueEmail('grace');
    const issued = (await invite(referrer.apiKey, email)).json<ReferralInvite>();

    expectError(await accept(referrer.apiKey, issued.referralInviteId, { email: uniqueEmail('mallory'), name: 'Mallory' }), 403, 'forbidden');
    // Only the inviter can simulate its customer's sign-up.
    expectError(await accept(other.apiKey, issued.referralInviteId, { email, name: 'Grace' }), 404, 'not_found');

    const answer = await accept(referrer.apiKey, issued.referralInviteId, { email: ` ${email.toUpperCase()}`, name: ' Grace Ltd ' });
    expect(answer.status).toBe(201);
    const signUp = answer.json<SignUp>();
    expect(signUp.organization).toMatchObject({
      name: 'Grace Ltd',
      email,
      verificationStatus: 'PENDING',
      parentOrganizationId: null,
      referrerOrganizationId: referrer.organizationId,
    });
    expect(signUp.apiKey).toMatch(/^sk_test_[0-9a-f]{64}$/);

    // Its own key works, and the ledger opens its own primary account.
    const self = await call(`/v1/organizations/${signUp.organization.organizationId}`, { key: signUp.apiKey });
    expect(self.status).toBe(200);
    expect(self.json<SignUp['organization']>().referrerOrganizationId).toBe(referrer.organizationId);
    const account = await eventually(async () => {
      const read = await call(`/v1/accounts/${signUp.organization.primaryAccountId}`, { key: signUp.apiKey });
      return read.status === 200 ? read.json<{ isPrimary: boolean }>() : undefined;
    }, 15000);
    expect(account.isPrimary).toBe(true);
    // A referral is not a client: the referrer does not see it as one.
    expectError(await call(`/v1/organizations/${signUp.organization.organizationId}`, { key: referrer.apiKey }), 404, 'organization_not_found');

    expectError(await accept(referrer.apiKey, issued.referralInviteId, { email, name: 'Grace again' }), 409, 'referral_invite_already_accepted');
    expectError(await invite(referrer.apiKey, email), 409, 'referral_invite_already_accepted');
    expect(await prisma.organization.count({ where: { referrerOrganizationId: referrer.organizationId, email } })).toBe(1);
  }, 30000);

  it('refuses an expired invite with not_found, lists it as EXPIRED, and revives it on a new request', async () => {
    const email = uniqueEmail('expired');
    const issued = (await invite(referrer.apiKey, email)).json<ReferralInvite>();
    await prisma.referralInvite.update({ where: { id: issued.referralInviteId }, data: { expiresAt: new Date(Date.now() - 1000) } });

    expectError(await accept(referrer.apiKey, issued.referralInviteId, { email, name: 'Late' }), 404, 'not_found');
    expectError(await accept(referrer.apiKey, 'refinv_nope', { email, name: 'Nobody' }), 404, 'not_found');
    const list = (await call('/v1/referral-invites?limit=100', { key: referrer.apiKey })).json<List<ReferralInvite>>();
    expect(list.data.find((item) => item.referralInviteId === issued.referralInviteId)?.status).toBe('EXPIRED');

    const revived = await invite(referrer.apiKey, email);
    expect(revived.status).toBe(200);
    expect(revived.json<ReferralInvite>()).toMatchObject({ referralInviteId: issued.referralInviteId, status: 'PENDING' });
  });

  it('lists only the caller’s invites, newest first, page by page, with their status', async () => {
    const lister = await e2e.createOrganization('e2e lister');
    const emails = [uniqueEmail('one'), uniqueEmail('two'), uniqueEmail('three')];
    const issued: ReferralInvite[] = [];
    for (const email of emails) {
      issued.push((await invite(lister.apiKey, email)).json<ReferralInvite>());
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const signUp = await accept(lister.apiKey, issued[0]!.referralInviteId, { email: emails[0], name: 'Accepted Ltd' });
    expect(signUp.status).toBe(201);

    const first = await call('/v1/referral-invites?limit=2', { key: lister.apiKey });
    expect(first.status).toBe(200);
    const page1 = first.json<List<ReferralInvite>>();
    expect(page1.data.map((item) => [item.referralInviteId, item.status])).toEqual([
      [issued[2]!.referralInviteId, 'PENDING'],
      [issued[1]!.referralInviteId, 'PENDING'],
    ]);
    expect(page1.hasMore).toBe(true);
    const page2 = (await call(`/v1/referral-invites?limit=2&cursor=${encodeURIComponent(page1.nextCursor!)}`, { key: lister.apiKey })).json<List<ReferralInvite>>();
    expect(page2).toEqual({ object: 'list', data: [{ ...issued[0], status: 'ACCEPTED' }], hasMore: false, nextCursor: null });

    const others = (await call('/v1/referral-invites', { key: other.apiKey })).json<List<ReferralInvite>>();
    expect(others.data.some((item) => emails.includes(item.email))).toBe(false);
    expectError(await call('/v1/referral-invites?limit=0', { key: lister.apiKey }), 400, 'validation_error');
  }, 30000);
});
