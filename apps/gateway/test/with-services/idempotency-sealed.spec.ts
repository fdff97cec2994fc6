import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { commandQueueName, type CommandService } from '@pfs/contracts';
import { createRedisConnection } from '@pfs/messaging';
import { eventually, isolateQueues, redisKeysHolding, testRedisUrl } from '@pfs/testing';
import { IdempotencyStore } from '../../src/idempotency/idempotency.store';
import { requestFingerprint } from '../../src/idempotency/request-fingerprint';
import type { Answer } from '../support/http-client';
import { startServices, type CreatedOrganization, type ServiceProcesses } from '../support/service-processes';
import { startTestGateway, type TestGateway } from '../support/test-gateway';

const ownPrefix = isolateQueues('gw-sealed-replays');

/** The services these requests reach. */
const SERVICES: CommandService[] = ['organization', 'ledger', 'beneficiary', 'webhook-delivery'];

/** `n` random decimal digits, so every number of this file is its own. */
const digits = (n: number): string => Array.from({ length: n }, () => randomInt(10)).join('');

/** An IBAN with correct check digits (ISO 13616: mod 97 of the rearranged number is 1). */
function germanIban(): string {
  const bban = `37040044${digits(10)}`;
  const check = 98n - (BigInt(`${bban}131400`) % 97n);
  return `DE${String(check).padStart(2, '0')}${bban}`;
}

/*
 * What the gateway keeps for an Idempotency-Key in Redis names no secret and no account number:
 * after a webhook secret rotation, a sandbox sign-up and a beneficiary registration, every key
 * under the services' prefix (the idempotency records, the command queues, their event streams)
 * is read whole, and none holds the secret, the API key or the payee's numbers, while a retry
 * with the key still answers the same response. Real services; gateways in this process.
 */
describe('idempotent responses sealed at rest', () => {
  let services: ServiceProcesses;
  /** Three replicas of one deployment during a key rotation: before, during, after. */
  let oldKey: TestGateway;
  let bothKeys: TestGateway;
  let newKey: TestGateway;
  let org: CreatedOrganization;
  const redis = createRedisConnection(testRedisUrl(), 'sealed-replays-test');
  let queues: Queue[] = [];
  /** The services' prefix (in the end-to-end project the shared stack's), where everything at rest is. */
  let queuePrefix: string;

  beforeAll(async () => {
    services = await startServices(ownPrefix, ['organization-service', 'ledger-service', 'beneficiary-service', 'webhook-delivery-service']);
    queuePrefix = services.queuePrefix;
    queues = SERVICES.flatMap((service) => (['mutations', 'queries'] as const).map((lane) => new Queue(commandQueueName(service, lane), { connection: redis, prefix: queuePrefix })));
    [oldKey, bothKeys, newKey] = await Promise.all(
      ['replay-key-1', 'replay-key-2,replay-key-1', 'replay-key-2'].map((keys) => startTestGateway({ env: { IDEMPOTENCY_REPLAY_KEY: keys } })),
    );
    org = await services.createOrganization('sealed replays');
    // The CLI answers once the ledger has opened the primary account; the route is read to be sure.
    await eventually(async () => ((await oldKey.request(`/v1/accounts/${org.accountId}`, { key: org.apiKey })).status === 200 ? true : undefined), 15000, 100);
  }, 120000);

  afterAll(async () => {
    await Promise.all(queues.map((queue) => queue.close()));
    redis.disconnect();
    await Promise.all([oldKey?.close(), bothKeys?.close(), newKey?.close()]);
    await services?.stop();
  }, 60000);

  const post = (gateway: TestGateway, path: string, body: unknown, idempotencyKey: string) =>
    gateway.request(path, { method: 'POST', key: org.apiKey, body, headers: { 'Idempotency-Key': idempotencyKey } });

  /** Sends the request, then again with the same key: the replay is the identical response. */
  const sendAndReplay = async (path: string, body: unknown, status: number): Promise<{ first: Answer; idempotencyKey: string }> => {
    const idempotencyKey = randomUUID();
    const first = await post(oldKey, path, body, idempotencyKey);
    expect({ status: first.status, replayed: first.headers.get('idempotent-replayed') }).toEqual({ status, replayed: null });
    const replay = await post(oldKey, path, body, idempotencyKey);
    expect({ status: replay.status, replayed: replay.headers.get('idempotent-replayed'), text: replay.text }).toEqual({ status, replayed: 'true', text: first.text });
    return { first, idempotencyKey };
  };

  /** The stored record: its body sealed, its fingerprint not the plain digest of the request. */
  const expectSealedRecord = async (idempotencyKey: string, path: string, body: unknown) => {
    const record = await redis.hgetall(oldKey.app.get(IdempotencyStore).redisKeyOf({ organizationId: org.organizationId, onBehalfOf: null, key: idempotencyKey }));
    expect(record).toMatchObject({ state: 'done', body: expect.stringMatching(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/) });
    expect(record.fingerprint).not.toBe(requestFingerprint('POST', path, body));
  };

  /**
   * Every command job of this test has finished (jobs are deleted once done): what stays in
   * Redis is what stays at rest. Its jobs are those naming its organization or any of `mentions`;
   * other files' jobs on the shared queues are not waited for.
   */
  const settled = (...mentions: string[]) =>
    eventually(async () => {
      const jobs = (await Promise.all(queues.map((queue) => queue.getJobs(['waiting', 'active', 'delayed', 'prioritized'])))).flat();
      const ours = jobs.filter((job) => {
        const text = JSON.stringify(job?.data ?? null);
        return [org.organizationId, ...mentions].some((mention) => text.includes(mention));
      });
      return ours.length === 0 ? true : undefined;
    }, 15000);

  const signUpBody = () => ({ email: `signup-${randomBytes(4).toString('hex')}@example.com`, name: `Signed up ${randomBytes(4).toString('hex')}` });

  /** A fresh invite for `body.email`; its acceptance path. */
  const invitePath = async (body: { email: string }) => {
    const invite = await oldKey.request('/v1/referral-invites', { method: 'POST', key: org.apiKey, body: { email: body.email } });
    expect(invite.status).toBe(201);
    return `/v1/sandbox/referral-invites/${invite.json<{ referralInviteId: string }>().referralInviteId}/accept`;
  };

  it('keeps no new webhook signing secret in clear', async () => {
    // Its organization moves no money and the endpoint listens to transaction events only,
    // and is deleted at once: no delivery is ever attempted to its public address.
    const endpoint = await oldKey.request('/v1/webhooks/endpoints', {
      method: 'POST',
      key: org.apiKey,
      body: { url: 'https://93.184.216.34/hooks/sealed', eventTypes: ['transaction.status.updated'] },
    });
    expect(endpoint.status).toBe(201);
    const endpointPath = `/v1/webhooks/endpoints/${endpoint.json<{ id: string }>().id}`;
    const path = `${endpointPath}/secret/rotate`;
    const body = { gracePeriodSeconds: 60 };

    const { first, idempotencyKey } = await sendAndReplay(path, body, 200);
    const deleted = await oldKey.request(endpointPath, { method: 'DELETE', key: org.apiKey, headers: { 'Idempotency-Key': randomUUID() } });
    expect(deleted.status).toBe(200);
    const secret = first.json<{ key: string }>().key;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{20,}=*$/);
    await settled(secret.slice('whsec_'.length));
    expect(await redisKeysHolding(queuePrefix, { secret: secret.slice('whsec_'.length) })).toEqual({ secret: [] });
    await expectSealedRecord(idempotencyKey, path, body);
  });

  it('keeps no API key of a sandbox sign-up in clear', async () => {
    const body = signUpBody();
    const path = await invitePath(body);

    const { first, idempotencyKey } = await sendAndReplay(path, body, 201);
    const apiKey = first.json<{ apiKey: string }>().apiKey;
    expect(apiKey).toMatch(/^sk_test_/);
    await settled(body.email, apiKey.slice('sk_test_'.length));
    expect(await redisKeysHolding(queuePrefix, { apiKey, secretPart: apiKey.slice('sk_test_'.length) })).toEqual({ apiKey: [], secretPart: [] });
    await expectSealedRecord(idempotencyKey, path, body);
  });

  it("keeps no payee's IBAN, account number, tax id, date of birth or address in clear", async () => {
    const payee = {
      iban: germanIban(),
      accountNumber: digits(12),
      taxId: `DE${digits(9)}`,
      dateOfBirth: `19${digits(2)}-0${randomInt(1, 10)}-1${randomInt(0, 10)}`,
      addressLine1: `Sealed Street ${digits(6)}`,
    };
    const body = {
      accountId: org.accountId,
      nickname: 'Sealed supplier',
      bankName: 'Deutsche Bank',
      method: 'SEPA',
      currency: 'EUR',
      swiftCode: 'DEUTDEFF',
      bankCountry: 'DE',
      entityType: 'INDIVIDUAL',
      firstName: 'Ada',
      lastName: 'Lovelace',
      city: 'Frankfurt',
      zipCode: '60329',
      country: 'DE',
      taxIdType: 'TIN',
      ...payee,
    };
    const path = '/v1/beneficiaries/bank';

    const { first, idempotencyKey } = await sendAndReplay(path, body, 201);
    // The response itself carries the IBAN, the date of birth and the address (the account
    // number and the tax id are never answered), so the stored one must not show them.
    expect(first.json()).toMatchObject({ dateOfBirth: payee.dateOfBirth, addressLine1: payee.addressLine1, bank: { iban: payee.iban } });
    await settled(...Object.values(payee));
    expect(await redisKeysHolding(queuePrefix, payee)).toEqual({ iban: [], accountNumber: [], taxId: [], dateOfBirth: [], addressLine1: [] });
    await expectSealedRecord(idempotencyKey, path, body);
  });

  it('replays across a key rotation, and runs a record no key opens again under the same command id', async () => {
    const body = signUpBody();
    const path = await invitePath(body);
    const { first, idempotencyKey } = await sendAndReplay(path, body, 201);

    // Appended or first, a replica that has the old key opens and matches what it sealed.
    const during = await post(bothKeys, path, body, idempotencyKey);
    expect({ status: during.status, replayed: during.headers.get('idempotent-replayed'), text: during.text }).toEqual({ status: 201, replayed: 'true', text: first.text });

    // Without it (dropped too early) the record is forgotten and the request runs again: the
    // organization service answers its command log's result, the same organization and key.
    const after = await post(newKey, path, body, idempotencyKey);
    expect({ status: after.status, replayed: after.headers.get('idempotent-replayed') }).toEqual({ status: 201, replayed: null });
    expect(after.json()).toEqual(first.json());
    expect(newKey.logs.lines().some((line) => line.msg === 'idempotency record sealed with an unknown key: running the request again')).toBe(true);
    // Stored again under the new key, which the replica holding both opens.
    const again = await post(bothKeys, path, body, idempotencyKey);
    expect({ status: again.status, replayed: again.headers.get('idempotent-replayed') }).toEqual({ status: 201, replayed: 'true' });
    expect(again.json()).toEqual(first.json());
  });
});
