import { createHash, randomUUID } from 'node:crypto';
import { newId, SANDBOX_CHAINS } from '@pfs/contracts';
import { createPrismaClient } from '@pfs/persistence';
import { CommandBus } from '@pfs/messaging';
import { eventually, isolateQueues, testDatabaseUrl, testRedisUrl } from '@pfs/testing';
import { send, type RequestOptions } from '../support/http-client';
import { expectError, REQUEST_ID, startE2eStack, type Answer, type CreatedOrganization, type E2eStack } from './support/e2e-stack';

const queuePrefix = isolateQueues('gw-e2e-funding');

// Its tests start operator CLI processes (org:create, key:create): on a busy 2-core machine
// those alone can outlast jest's default 30 s.
jest.setTimeout(120_000);

interface FundingMethod {
  object: 'funding_method';
  fundingMethodId: string;
  accountId: string;
  asset: string;
  type: 'CRYPTO_ADDRESS' | 'BANK_ACCOUNT';
  chainName: string | null;
  address: string | null;
  bank: { bankName: string; accountNumber: string; routingNumber: string | null; iban: string | null; swiftCode: string | null; reference: string } | null;
  createdAt: string;
}
interface FundingMethodList {
  object: 'list';
  data: FundingMethod[];
  hasMore: boolean;
  nextCursor: string | null;
}

const EVM_CHAINS = ['ARBITRUM_SEPOLIA', 'BASE_SEPOLIA', 'BSC_TESTNET', 'ETHEREUM_SEPOLIA'];
const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function decodeBase58(text: string): Buffer {
  let value = 0n;
  for (const char of text) {
    const digit = BASE58.indexOf(char);
    if (digit < 0) throw new Error(`not base58: ${text}`);
    value = value * 58n + BigInt(digit);
  }
  const hex = value === 0n ? '' : value.toString(16);
  const zeros = /^1*/.exec(text)?.[0].length ?? 0;
  return Buffer.concat([Buffer.alloc(zeros), Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex')]);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest();

/** The address format of each sandbox chain (EIP-55's keccak is checked by the ledger's unit tests). */
function expectAddressOf(chain: string, address: string): void {
  if (EVM_CHAINS.includes(chain)) {
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  } else if (chain === 'SOLANA_DEVNET') {
    expect(decodeBase58(address)).toHaveLength(32);
  } else {
    expect(chain).toBe('TRON_NILE');
    expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    const decoded = decodeBase58(address);
    expect(decoded).toHaveLength(25);
    expect(decoded[0]).toBe(0x41);
    expect(decoded.subarray(21)).toEqual(sha256(sha256(decoded.subarray(0, 21))).subarray(0, 4));
  }
}

function ibanIsValid(iban: string): boolean {
  const rearranged = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (char) => String(char.charCodeAt(0) - 55));
  return BigInt(rearranged) % 97n === 1n;
}

function abaIsValid(routing: string): boolean {
  const d = [...routing].map(Number);
  return /^\d{9}$/.test(routing) && (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8])) % 10 === 0;
}

/*
 * POST /v1/funding-methods and GET /v1/funding-methods/{id} through the gateway, the command
 * queues, the ledger and the organization service, each a real process.
 */
describe('gateway end to end: assets and funding methods', () => {
  let e2e: E2eStack;

  beforeAll(async () => {
    e2e = await startE2eStack(queuePrefix);
  }, 120000);

  afterAll(async () => {
    await e2e?.stop();
  }, 60000);

  function request(path: string, options: RequestOptions = {}): Promise<Answer> {
    return send(e2e.baseUrl, path, options);
  }

  function provision(organization: CreatedOrganization, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    return request('/v1/funding-methods', { method: 'POST', key: organization.apiKey, body, headers });
  }

  async function assetStatuses(organization: CreatedOrganization): Promise<Record<string, string>> {
    const answer = await e2e.get('/v1/assets', { key: organization.apiKey });
    expect(answer.status).toBe(200);
    return Object.fromEntries(answer.json<{ data: Array<{ code: string; status: string }> }>().data.map((asset) => [asset.code, asset.status]));
  }

  /** A new approved organization whose primary account the ledger has opened. */
  async function organizationWithAccount(label: string): Promise<CreatedOrganization> {
    const organization = await e2e.createOrganization(label);
    await eventually(async () => ((await e2e.get(`/v1/accounts/${organization.accountId}`, { key: organization.apiKey })).status === 200 ? true : undefined), 10000, 100);
    return organization;
  }

  describe('POST /v1/funding-methods', () => {
    let malformedCaller: CreatedOrganization;

    beforeAll(async () => {
      malformedCaller = await e2e.createOrganization('fm malformed');
    }, 30000);

    it('enables USDC and provisions a deposit address on each of the six sandbox chains of the primary account, the same ones every time', async () => {
      const alpha = await organizationWithAccount('fm usdc');
      const neighbour = await organizationWithAccount('fm neighbour');
      expect((await assetStatuses(alpha)).USDC).toBe('AVAILABLE');

      const first = await provision(alpha, { asset: 'USDC' });

      expect(first.status).toBe(200);
      expect(first.headers.get('x-request-id')).toMatch(REQUEST_ID);
      const body = first.json<FundingMethodList>();
      expect(body).toEqual({ object: 'list', data: expect.any(Array), hasMore: false, nextCursor: null });
      expect(body.data.map((method) => method.chainName)).toEqual([...SANDBOX_CHAINS].sort());
      for (const method of body.data) {
        expect(method).toEqual({
          object: 'funding_method',
          fundingMethodId: expect.stringMatching(/^fm_[0-9a-f]{32}$/),
          accountId: alpha.accountId,
          asset: 'USDC',
          type: 'CRYPTO_ADDRESS',
          chainName: method.chainName,
          address: expect.any(String),
          bank: null,
          createdAt: expect.stringMatching(ISO_MILLIS),
        });
        expectAddressOf(method.chainName ?? '', method.address ?? '');
      }
      expect(new Set(body.data.map((method) => method.address)).size).toBe(6);

      const second = await provision(alpha, { asset: 'USDC', accountId: alpha.accountId });
      expect(second.status).toBe(200);
      expect(second.json()).toEqual(body);

      expect(await assetStatuses(alpha)).toEqual({ USD: 'AVAILABLE', EUR: 'AVAILABLE', USDC: 'ENABLED', USDT: 'AVAILABLE', BTC: 'AVAILABLE', ETH: 'AVAILABLE' });
      // Enablement is per organization.
      expect(Object.values(await assetStatuses(neighbour)).every((status) => status === 'AVAILABLE')).toBe(true);
      const account = await e2e.get(`/v1/accounts/${alpha.accountId}`, { key: alpha.apiKey });
      expect(account.json<{ fundingMethods: FundingMethod[] }>().fundingMethods).toEqual(body.data);
    });

    it('gives ETH the four EVM chains, and BTC an empty list while still enabling it', async () => {
      const org = await organizationWithAccount('fm eth btc');

      const eth = await provision(org, { asset: 'ETH', accountId: org.accountId });
      const btc = await provision(org, { asset: 'BTC', accountId: null });

      expect(eth.status).toBe(200);
      const ethMethods = eth.json<FundingMethodList>().data;
      expect(ethMethods.map((method) => method.chainName)).toEqual(EVM_CHAINS);
      for (const method of ethMethods) expectAddressOf(method.chainName ?? '', method.address ?? '');
      expect(btc.status).toBe(200);
      expect(btc.json()).toEqual({ object: 'list', data: [], hasMore: false, nextCursor: null });
      expect(await assetStatuses(org)).toMatchObject({ ETH: 'ENABLED', BTC: 'ENABLED', USDC: 'AVAILABLE' });
      const account = await e2e.get(`/v1/accounts/${org.accountId}`, { key: org.apiKey });
      expect(account.json<{ fundingMethods: FundingMethod[] }>().fundingMethods).toEqual(ethMethods);
    });

    it('gives USD and EUR one bank account each, with valid numbers and unique references, and never logs the account numbers', async () => {
      const org = await organizationWithAccount('fm fiat');
      const other = await organizationWithAccount('fm fiat other');

      const [usd] = (await provision(org, { asset: 'USD' })).json<FundingMethodList>().data;
      const [eur] = (await provision(org, { asset: 'EUR' })).json<FundingMethodList>().data;
      const [otherUsd] = (await provision(other, { asset: 'USD' })).json<FundingMethodList>().data;

      expect(usd).toMatchObject({ object: 'funding_method', accountId: org.accountId, asset: 'USD', type: 'BANK_ACCOUNT', chainName: null, address: null });
      expect(usd.bank).toEqual({
        bankName: expect.any(String),
        accountNumber: expect.stringMatching(/^\d{12}$/),
        routingNumber: expect.any(String),
        iban: null,
        swiftCode: null,
        reference: expect.stringMatching(/^[A-Z0-9]{8,35}$/),
      });
      expect(abaIsValid(usd.bank?.routingNumber ?? '')).toBe(true);
      expect(eur).toMatchObject({ asset: 'EUR', type: 'BANK_ACCOUNT', chainName: null, address: null });
      expect(eur.bank).toEqual({
        bankName: expect.any(String),
        accountNumber: expect.stringMatching(/^\d{10}$/),
        routingNumber: null,
        iban: expect.stringMatching(/^DE\d{20}$/),
        swiftCode: expect.stringMatching(/^[A-Z]{4}DE[A-Z0-9]{2}([A-Z0-9]{3})?$/),
        reference: expect.stringMatching(/^[A-Z0-9]{8,35}$/),
      });
      expect(ibanIsValid(eur.bank?.iban ?? '')).toBe(true);
      expect(new Set([usd.bank?.reference, eur.bank?.reference, otherUsd.bank?.reference]).size).toBe(3);
      expect((await provision(org, { asset: 'USD' })).json<FundingMethodList>().data).toEqual([usd]);
      expect(await assetStatuses(org)).toMatchObject({ USD: 'ENABLED', EUR: 'ENABLED' });

      const output = [...e2e.stack.apps.values()].flatMap((app) => app.output).join('\n');
      for (const secret of [usd.bank?.accountNumber, eur.bank?.accountNumber, eur.bank?.iban]) expect(output).not.toContain(secret);
    });

    it('provisions once when first calls race, and replays a repeated Idempotency-Key', async () => {
      const org = await organizationWithAccount('fm race');

      const answers = await Promise.all([1, 2, 3, 4].map(() => provision(org, { asset: 'USDT' })));

      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
      const bodies = answers.map((answer) => answer.json<FundingMethodList>());
      expect(bodies.slice(1)).toEqual([bodies[0], bodies[0], bodies[0]]);
      expect(bodies[0].data).toHaveLength(6);

      const key = randomUUID();
      const keyed = await provision(org, { asset: 'EUR' }, { 'Idempotency-Key': key });
      const replayed = await provision(org, { asset: 'EUR' }, { 'Idempotency-Key': key });
      expect(keyed.status).toBe(200);
      expect(replayed.status).toBe(200);
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      expect(replayed.json()).toEqual(keyed.json());
    });

    it('answers 404 not_found for an asset outside the catalog, and enables nothing', async () => {
      const org = await organizationWithAccount('fm unknown asset');

      for (const asset of ['DOGE', 'usdc']) {
        const error = expectError(await provision(org, { asset }), 404, 'not_found');
        expect(error.message).toBe(`No asset ${asset} was found.`);
      }
      expect(Object.values(await assetStatuses(org)).every((status) => status === 'AVAILABLE')).toBe(true);
    });

    it('answers 404 account_not_found for another organization’s account and an unknown one, and enables nothing', async () => {
      const org = await organizationWithAccount('fm foreign');
      const owner = await organizationWithAccount('fm owner');

      const foreign = expectError(await provision(org, { asset: 'USDC', accountId: owner.accountId }), 404, 'account_not_found');
      expectError(await provision(org, { asset: 'USDC', accountId: newId('account') }), 404, 'account_not_found');

      expect(foreign.message).toBe(`No account ${owner.accountId} was found.`);
      expect((await assetStatuses(org)).USDC).toBe('AVAILABLE');
      const ownerAccount = await e2e.get(`/v1/accounts/${owner.accountId}`, { key: owner.apiKey });
      expect(ownerAccount.json<{ fundingMethods: unknown[] }>().fundingMethods).toEqual([]);
    });

    it.each([
      ['no asset', {}, 'asset: must be an asset code (a string of 1–32 characters)'],
      ['a number for asset', { asset: 5 }, 'asset: must be an asset code (a string of 1–32 characters)'],
      ['an empty asset', { asset: '' }, 'asset: must be an asset code (a string of 1–32 characters)'],
      ['a malformed accountId', { asset: 'USDC', accountId: 'acct_123' }, 'accountId: must be an account id (acct_ followed by 32 lowercase hex characters)'],
      ['an unknown field', { asset: 'USDC', chainName: 'TRON_NILE' }, 'chainName: is not a recognised parameter'],
      ['an array body', [{ asset: 'USDC' }], 'The request body must be a JSON object.'],
    ])('answers 400 invalid_request for %s', async (_label, body, message) => {
      expect(expectError(await provision(malformedCaller, body), 400, 'invalid_request').message).toBe(message);
    });

    it('answers 400 invalid_request for a body that is not JSON, 401 without a key, and refuses Service-On-Behalf-Of', async () => {
      const org = await organizationWithAccount('fm platform');
      const client = await e2e.createOrganization('fm platform other');

      expectError(await request('/v1/funding-methods', { method: 'POST', key: org.apiKey, body: '{"asset":', headers: { 'content-type': 'application/json' } }), 400, 'invalid_request');
      expectError(await request('/v1/funding-methods', { method: 'POST', body: { asset: 'USDC' } }), 401, 'missing_api_key');
      const onBehalf = await provision(org, { asset: 'USDC' }, { 'Service-On-Behalf-Of': client.organizationId });
      expect(expectError(onBehalf, 400, 'invalid_request').message).toBe('Service-On-Behalf-Of is not supported on this endpoint.');
      expect((await assetStatuses(org)).USDC).toBe('AVAILABLE');
    });
  });

  describe('GET /v1/assets with Service-On-Behalf-Of', () => {
    it('shows the client’s own enablement to its creator, not the creator’s', async () => {
      const broker = await organizationWithAccount('fm broker');
      const client = await organizationWithAccount('fm client');
      // Client organizations are created through POST /v1/organizations; the
      // broker relation is seeded straight into the organization service's table here.
      const prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 1, applicationName: 'gateway-e2e-funding' });
      try {
        await prisma.organization.update({ where: { id: client.organizationId }, data: { parentOrganizationId: broker.organizationId } });
      } finally {
        await prisma.$disconnect();
      }
      expect((await provision(client, { asset: 'EUR' })).status).toBe(200);
      expect((await provision(broker, { asset: 'ETH' })).status).toBe(200);

      const onBehalf = await e2e.get('/v1/assets', { key: broker.apiKey, headers: { 'Service-On-Behalf-Of': client.organizationId } });

      expect(onBehalf.status).toBe(200);
      const statuses = Object.fromEntries(onBehalf.json<{ data: Array<{ code: string; status: string }> }>().data.map((asset) => [asset.code, asset.status]));
      expect(statuses).toEqual({ USD: 'AVAILABLE', EUR: 'ENABLED', USDC: 'AVAILABLE', USDT: 'AVAILABLE', BTC: 'AVAILABLE', ETH: 'AVAILABLE' });
      expect(await assetStatuses(broker)).toMatchObject({ EUR: 'AVAILABLE', ETH: 'ENABLED' });
    });
  });

  describe('the ledger’s funding-methods.provisioned event', () => {
    it('enables the asset by itself, so the two services converge even when the gateway’s enable step never ran', async () => {
      const org = await organizationWithAccount('fm event');
      // The ledger's half only, as when the gateway failed right after it.
      const bus = new CommandBus({ redisUrl: testRedisUrl(), prefix: e2e.queuePrefix, timeoutMs: 30000 });
      try {
        const methods = await bus.send('ledger', 'funding-methods.provision', { organizationId: org.organizationId, accountId: null, asset: 'EUR' }, { requestId: 'req_e2e' });
        expect(methods).toHaveLength(1);
      } finally {
        await bus.close();
      }
      await eventually(async () => ((await assetStatuses(org)).EUR === 'ENABLED' ? true : undefined), 10000, 100);
      expect(Object.entries(await assetStatuses(org)).filter(([, status]) => status === 'ENABLED')).toEqual([['EUR', 'ENABLED']]);
    });
  });

  describe('GET /v1/funding-methods/{fundingMethodId}', () => {
    it('returns a method of the caller’s account, and 404 funding_method_not_found for another organization’s, an unknown and a malformed id', async () => {
      const org = await organizationWithAccount('fm get');
      const stranger = await organizationWithAccount('fm get stranger');
      const methods = (await provision(org, { asset: 'USDC' })).json<FundingMethodList>().data;
      const tron = methods.find((method) => method.chainName === 'TRON_NILE');

      const own = await e2e.get(`/v1/funding-methods/${tron?.fundingMethodId}`, { key: org.apiKey });
      expect(own.status).toBe(200);
      expect(own.json()).toEqual(tron);

      const foreign = expectError(await e2e.get(`/v1/funding-methods/${tron?.fundingMethodId}`, { key: stranger.apiKey }), 404, 'funding_method_not_found');
      expect(foreign.message).toBe(`No funding method ${tron?.fundingMethodId} was found.`);
      expectError(await e2e.get(`/v1/funding-methods/${newId('fundingMethod')}`, { key: org.apiKey }), 404, 'funding_method_not_found');
      for (const malformed of ['fm_123', org.accountId, `fm_${'A'.repeat(32)}`]) {
        expectError(await e2e.get(`/v1/funding-methods/${malformed}`, { key: org.apiKey }), 404, 'funding_method_not_found');
      }
      expectError(await e2e.get(`/v1/funding-methods/${tron?.fundingMethodId}?expand=bank`, { key: org.apiKey }), 400, 'invalid_request');
    });
  });

  describe('documentation', () => {
    it('documents both routes with their bodies and errors', async () => {
      const document = (await e2e.get('/openapi.json')).json<{
        paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, { description: string }>; description?: string }>>;
        components: { schemas: Record<string, unknown> };
      }>();
      const post = document.paths['/v1/funding-methods']?.post;
      expect(Object.keys(post?.responses ?? {}).sort()).toEqual(['200', '400', '401', '404', '408', '409', '422', '429', '431', '500', '503']);
      expect(post?.responses['404']?.description).toMatch(/not_found/);
      expect(post?.responses['404']?.description).toContain('account_not_found');
      expect(post?.requestBody).toBeDefined();
      expect(post?.description).toContain('Orchestration');
      const get = document.paths['/v1/funding-methods/{fundingMethodId}']?.get;
      expect(get?.responses['404']?.description).toContain('funding_method_not_found');
      expect(document.components.schemas.FundingMethodList).toBeDefined();
      expect(document.components.schemas.ProvisionFundingMethodsRequest).toBeDefined();
    });
  });
});
