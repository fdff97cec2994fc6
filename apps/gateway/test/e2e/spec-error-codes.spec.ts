import { randomUUID } from 'node:crypto';
import { isolateQueues } from '@pfs/testing';
import { expectError, send, type Answer, type RequestOptions } from '../support/http-client';
import { startE2eStack, type CreatedOrganization, type E2eStack } from './support/e2e-stack';

const queuePrefix = isolateQueues('gw-e2e-spec-codes');

type Call = (key?: string) => Promise<Answer>;

/*
 * Spec §7 lists, per endpoint, the codes a partner must be ready for. For the endpoints of the
 * organization service each listed code is produced here through the gateway against the real
 * services, as the code itself or, where api-decisions name a more specific one, as that code
 * (the OpenAPI document says which: see openapi-document.spec.ts). Two codes are proven
 * elsewhere: rate_limited by the in-process gateway (test/with-services/rate-limit.spec.ts, the
 * guard is global), internal_error with the organization service stopped in the isolated project
 * (test/e2e-isolated/outage-and-shutdown.spec.ts).
 */
describe('spec §7 error codes per endpoint, end to end', () => {
  let e2e: E2eStack;
  let broker: CreatedOrganization;
  let stranger: CreatedOrganization;
  let client: string;

  const call = (path: string, options?: RequestOptions): Promise<Answer> => send(e2e.baseUrl, path, options);
  const onBehalfOf = (organizationId: string) => ({ 'service-on-behalf-of': organizationId });

  // One request per §7 row that succeeds for the broker (the tier call names its client).
  const endpoints: Record<string, (key?: string, extra?: Partial<RequestOptions>) => Promise<Answer>> = {
    'GET /v1/assets': (key, extra) => call('/v1/assets', { key, ...extra }),
    'PUT /v1/organizations/sub-org-tier': (key, extra) =>
      call('/v1/organizations/sub-org-tier', { method: 'PUT', key, headers: onBehalfOf(client), body: { subOrgTierKey: 'preferred' }, ...extra }),
    'POST /v1/referral-invites': (key, extra) =>
      call('/v1/referral-invites', { method: 'POST', key, body: { email: `spec-${randomUUID().slice(0, 8)}@example.com` }, ...extra }),
  };
  const each = (run: (name: string, endpoint: Call) => Promise<void>) =>
    Promise.all(Object.entries(endpoints).map(([name, endpoint]) => run(name, (key) => endpoint(key))));

  beforeAll(async () => {
    e2e = await startE2eStack(queuePrefix);
    [broker, stranger] = await Promise.all([e2e.createOrganization('spec codes broker'), e2e.createOrganization('spec codes stranger')]);
    const created = await call('/v1/organizations', { method: 'POST', key: broker.apiKey, body: { name: 'Spec codes client', entityType: 'BUSINESS', country: 'FR' } });
    expect(created.status).toBe(201);
    client = created.json<{ organizationId: string }>().organizationId;
  }, 120000);

  afterAll(async () => {
    await e2e?.stop();
  }, 60000);

  it('every endpoint succeeds for the broker, so each refusal below is caused by what it changes', async () => {
    await each(async (name, endpoint) => {
      const answer = await endpoint(broker.apiKey);
      expect({ name, status: answer.status }).toEqual({ name, status: name.startsWith('POST') ? 201 : 200 });
    });
  }, 120000);

  it('missing_api_key: 401 on every endpoint without an Authorization header', async () => {
    await each(async (_name, endpoint) => {
      expectError(await endpoint(undefined), 401, 'missing_api_key');
    });
  }, 120000);

  describe('forbidden (403)', () => {
    it('GET /v1/assets: on behalf of an organization the caller neither created nor holds an LOA from', async () => {
      expectError(await endpoints['GET /v1/assets'](stranger.apiKey, { headers: onBehalfOf(client) }), 403, 'forbidden');
    }, 120000);

    it('PUT /v1/organizations/sub-org-tier: by anyone but the client’s creator', async () => {
      expectError(await endpoints['PUT /v1/organizations/sub-org-tier'](stranger.apiKey), 403, 'forbidden');
    }, 120000);

    it('POST /v1/referral-invites: while the operator has suspended the caller’s referrals, until resumed', async () => {
      const referrer = await e2e.createOrganization('spec codes referrer');
      const email = `suspended-${randomUUID().slice(0, 8)}@example.com`;
      const issue = (address = email) => call('/v1/referral-invites', { method: 'POST', key: referrer.apiKey, body: { email: address } });
      expect((await issue()).status).toBe(201);

      const suspended = await e2e.cli<{ suspendedAt: string | null }>('referrals:suspend', '--org', referrer.organizationId);
      expect(suspended.suspendedAt).not.toBeNull();
      // Renewing the same email and inviting another are both refused; nothing changes.
      expect(expectError(await issue(), 403, 'forbidden').message).toContain('suspended');
      expectError(await issue(`other-${email}`), 403, 'forbidden');
      const listed = await call('/v1/referral-invites', { key: referrer.apiKey });
      expect(listed.json<{ data: Array<{ email: string }> }>().data.map((invite) => invite.email)).toEqual([email]);

      await e2e.cli('referrals:resume', '--org', referrer.organizationId);
      expect((await issue()).status).toBe(200);
      expect((await issue(`other-${email}`)).status).toBe(201);
    }, 120000);
  });

  describe('not_found (404), answered with the specific code api-decisions name', () => {
    it('GET /v1/assets: an unknown client in Service-On-Behalf-Of is organization_not_found', async () => {
      expectError(await endpoints['GET /v1/assets'](broker.apiKey, { headers: onBehalfOf(`org_${'0'.repeat(32)}`) }), 404, 'organization_not_found');
    }, 120000);

    it('PUT /v1/organizations/sub-org-tier: an unknown client is organization_not_found, an unknown tier key sub_org_tier_not_found', async () => {
      const tier = endpoints['PUT /v1/organizations/sub-org-tier'];
      expectError(await tier(broker.apiKey, { headers: onBehalfOf(`org_${'0'.repeat(32)}`) }), 404, 'organization_not_found');
      expectError(await tier(broker.apiKey, { body: { subOrgTierKey: 'platinum' } }), 404, 'sub_org_tier_not_found');
    }, 120000);
  });

  it('validation_error: 400 for a malformed body on the two endpoints the spec gives it to', async () => {
    const tier = expectError(await endpoints['PUT /v1/organizations/sub-org-tier'](broker.apiKey, { body: { subOrgTierKey: 7 } }), 400, 'validation_error');
    expect(tier.message).toMatch(/^subOrgTierKey: /);
    const invite = expectError(await endpoints['POST /v1/referral-invites'](broker.apiKey, { body: { email: 'not an email' } }), 400, 'validation_error');
    expect(invite.message).toMatch(/^email: /);
    expectError(await endpoints['POST /v1/referral-invites'](broker.apiKey, { body: {} }), 400, 'validation_error');
    // A cursor the service cannot decode is malformed input too: the same code, not invalid_request.
    for (const cursor of ['abc', 'eyJ0YW1wZXJlZCI6dHJ1ZX0']) {
      expect(expectError(await call(`/v1/referral-invites?cursor=${cursor}`, { key: broker.apiKey }), 400, 'validation_error').message).toMatch(/cursor/);
    }
  }, 120000);

  it('refuses the NUL character in any text field with the route’s 400 code, never a 500, and stores nothing', async () => {
    const nul = '\u0000';
    const cases: Array<[Promise<Answer>, string, RegExp]> = [
      [endpoints['POST /v1/referral-invites'](broker.apiKey, { body: { email: `a${nul}b@example.com` } }), 'validation_error', /^email: /],
      [endpoints['PUT /v1/organizations/sub-org-tier'](broker.apiKey, { body: { subOrgTierKey: `vip${nul}` } }), 'validation_error', /^subOrgTierKey: /],
      [
        call('/v1/organizations', { method: 'POST', key: broker.apiKey, body: { name: `Nul${nul}Co`, entityType: 'BUSINESS', country: 'DE' } }),
        'invalid_request',
        /^name: /,
      ],
      [
        call(`/v1/sandbox/organizations/${client}/verification`, { method: 'POST', key: broker.apiKey, body: { status: 'ON_HOLD', reason: `bad${nul}reason` } }),
        'invalid_request',
        /^reason: /,
      ],
    ];
    for (const [answer, code, message] of cases) {
      expect(expectError(await answer, 400, code).message).toMatch(message);
    }
    const clients = await call('/v1/organizations', { key: broker.apiKey });
    expect(clients.json<{ data: Array<{ name: string }> }>().data.map((organization) => organization.name)).toEqual(['Spec codes client']);
    expect((await call(`/v1/organizations/${client}`, { key: broker.apiKey })).json()).toMatchObject({ verificationStatus: 'PENDING' });
  }, 120000);
});
