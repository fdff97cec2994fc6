import type { BeneficiaryView, PageView } from '@pfs/contracts';
import { isolateQueues } from '@pfs/testing';
import { expectError } from '../support/http-client';
import { useStandInRoutes } from '../support/stand-in-service';
import { startTestGateway, type TestGateway } from '../support/test-gateway';

const queuePrefix = isolateQueues('gw-beneficiary-routes');

const BENEFICIARY_ID = 'bene_9a2c4e6f8b0d1c3e5a7f9b2d4c6e8a0f';
const ACCOUNT_ID = 'acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c';

/** What the stand-in beneficiary service answers: a valid view, so responses match the document. */
const VIEW: BeneficiaryView = {
  object: 'beneficiary',
  beneficiaryId: BENEFICIARY_ID,
  accountId: ACCOUNT_ID,
  type: 'BANK',
  nickname: 'Supplier',
  status: 'ACTIVE',
  entityType: null,
  email: null,
  phoneNumber: null,
  firstName: null,
  lastName: null,
  legalName: null,
  dateOfBirth: null,
  businessName: null,
  registrationNumber: null,
  country: null,
  addressLine1: null,
  addressLine2: null,
  city: null,
  region: null,
  zipCode: null,
  taxIdType: null,
  tags: [],
  metadata: {},
  crypto: null,
  bank: {
    bankName: 'Deutsche Bank',
    method: 'SEPA',
    currency: 'EUR',
    swiftCode: 'DEUTDEFF',
    bankCountry: 'DE',
    iban: 'DE89370400440532013000',
    routingNumber: null,
    accountNumberLast4: '3000',
    bankAddressLine1: null,
    bankCity: null,
    bankRegion: null,
    bankZipCode: null,
    intermediaryBankName: null,
    intermediarySwiftCode: null,
    intermediaryBankAddress: null,
  },
  servicenet: null,
  duplicateOf: null,
  createdAt: '2026-11-21T04:44:09.123Z',
  updatedAt: '2026-11-21T04:44:09.123Z',
};
const PAGE: PageView<BeneficiaryView> = { data: [VIEW], hasMore: false, nextCursor: null };

const BANK = {
  accountId: ACCOUNT_ID,
  nickname: 'Supplier',
  bankName: 'Deutsche Bank',
  method: 'SEPA',
  currency: 'EUR',
  swiftCode: 'DEUTDEFF',
  accountNumber: '0532013000',
  bankCountry: 'DE',
};
const CRYPTO = { accountId: ACCOUNT_ID, nickname: 'Wallet', chainName: 'ETHEREUM_SEPOLIA', address: '0x52908400098527886e0f7030069857d2e4169ee7' };

/** Every field PATCH accepts (spec 4.5 and api-decisions §7). */
const PATCH_FIELDS = [
  'accountId', 'nickname', 'address', 'bankName', 'method', 'currency', 'swiftCode', 'accountNumber', 'bankCountry', 'iban', 'routingNumber',
  'bankAddressLine1', 'bankCity', 'bankRegion', 'bankZipCode', 'intermediaryBankName', 'intermediarySwiftCode', 'intermediaryBankAddress',
  'entityType', 'email', 'phoneNumber', 'firstName', 'lastName', 'legalName', 'dateOfBirth', 'businessName', 'registrationNumber',
  'addressLine1', 'addressLine2', 'city', 'region', 'zipCode', 'country', 'taxId', 'taxIdType', 'tags', 'metadata',
];

/*
 * The gateway's half of the beneficiary routes, against a stand-in for the beneficiary service
 * (the real one is exercised in e2e/beneficiaries.spec.ts): what each route forwards as its
 * command (PATCH: exactly the fields sent, null kept), and what it refuses before asking the
 * service at all (the shape of bodies and queries, spec 8's limits, malformed ids), each
 * refusal naming the field.
 */
describe('beneficiary routes at the gateway', () => {
  const routes = useStandInRoutes(queuePrefix, 'beneficiary', (name) => (name === 'beneficiaries.list' ? PAGE : VIEW));
  const { sent, call, refused } = routes;

  describe('what is forwarded', () => {
    it('a bank beneficiary: the fields sent, with the caller’s organization, null kept as none', async () => {
      const answer = await call('POST', '/v1/beneficiaries/bank', { ...BANK, iban: 'DE89 3704 0044 0532 0130 00', email: null, tags: ['a'], metadata: { k: 'v' } });
      expect(answer.status).toBe(201);
      expect(answer.json()).toEqual(VIEW);
      expect(sent).toEqual([
        {
          name: 'bank-beneficiaries.create',
          payload: { ...BANK, iban: 'DE89 3704 0044 0532 0130 00', email: null, tags: ['a'], metadata: { k: 'v' }, organizationId: routes.org.organizationId },
        },
      ]);
    });

    it('a crypto beneficiary', async () => {
      expect((await call('POST', '/v1/beneficiaries/crypto', { ...CRYPTO, asset: 'USDC' })).status).toBe(201);
      expect(sent).toEqual([{ name: 'crypto-beneficiaries.create', payload: { ...CRYPTO, asset: 'USDC', organizationId: routes.org.organizationId } }]);
    });

    it('PATCH: exactly the fields present as `changes` (omitted means unchanged), null kept (it clears)', async () => {
      expect((await call('PATCH', `/v1/beneficiaries/${BENEFICIARY_ID}`, { nickname: 'Renamed', email: null, tags: [] })).status).toBe(200);
      expect(sent).toEqual([
        { name: 'beneficiaries.update', payload: { organizationId: routes.org.organizationId, beneficiaryId: BENEFICIARY_ID, changes: { nickname: 'Renamed', email: null, tags: [] } } },
      ]);
      sent.length = 0;
      expect((await call('PATCH', `/v1/beneficiaries/${BENEFICIARY_ID}`, {})).status).toBe(200);
      expect(sent[0]?.payload.changes).toEqual({});
    });

    it('PATCH lets null through for every field: the service decides which ones may be cleared', async () => {
      const everyNull = Object.fromEntries(PATCH_FIELDS.map((field) => [field, null]));
      expect((await call('PATCH', `/v1/beneficiaries/${BENEFICIARY_ID}`, everyNull)).status).toBe(200);
      expect(sent).toEqual([{ name: 'beneficiaries.update', payload: { organizationId: routes.org.organizationId, beneficiaryId: BENEFICIARY_ID, changes: everyNull } }]);
    });

    it('the list with its page and filters; get, archive, unarchive, block and unblock with the id', async () => {
      const list = await call('GET', `/v1/beneficiaries?limit=10&accountId=${ACCOUNT_ID}&type=BANK&status=ARCHIVED`);
      expect(list.status).toBe(200);
      expect(list.json()).toEqual({ object: 'list', data: [VIEW], hasMore: false, nextCursor: null });
      expect(list.headers.get('x-page-size')).toBe('1');
      expect(sent).toEqual([
        {
          name: 'beneficiaries.list',
          payload: { organizationId: routes.org.organizationId, page: { limit: 10, cursor: null }, filters: { accountId: ACCOUNT_ID, type: 'BANK', status: 'ARCHIVED' } },
        },
      ]);
      sent.length = 0;
      expect((await call('GET', '/v1/beneficiaries')).status).toBe(200);
      expect(sent[0]?.payload).toEqual({ organizationId: routes.org.organizationId, page: { limit: 25, cursor: null }, filters: {} });

      const owned = { organizationId: routes.org.organizationId, beneficiaryId: BENEFICIARY_ID };
      for (const [method, path, name] of [
        ['GET', `/v1/beneficiaries/${BENEFICIARY_ID}`, 'beneficiaries.get'],
        ['POST', `/v1/beneficiaries/${BENEFICIARY_ID}/archive`, 'beneficiaries.archive'],
        ['POST', `/v1/beneficiaries/${BENEFICIARY_ID}/unarchive`, 'beneficiaries.unarchive'],
        ['POST', `/v1/sandbox/beneficiaries/${BENEFICIARY_ID}/block`, 'beneficiaries.block'],
        ['POST', `/v1/sandbox/beneficiaries/${BENEFICIARY_ID}/unblock`, 'beneficiaries.unblock'],
      ] as const) {
        sent.length = 0;
        const answer = await call(method, path);
        expect({ path, status: answer.status }).toEqual({ path, status: 200 });
        expect(sent).toEqual([{ name, payload: owned }]);
      }
    });
  });

  describe('what is refused before the service is asked', () => {
    it.each(Object.keys(BANK))('a bank beneficiary without %s', async (field) => {
      const { [field as keyof typeof BANK]: _left, ...body } = BANK;
      expect(await refused('POST', '/v1/beneficiaries/bank', body)).toBe(`${field}: is required`);
      expect(await refused('POST', '/v1/beneficiaries/bank', { ...BANK, [field]: null })).toBe(`${field}: is required`);
    });

    it.each(Object.keys(CRYPTO))('a crypto beneficiary without %s', async (field) => {
      const { [field as keyof typeof CRYPTO]: _left, ...body } = CRYPTO;
      expect(await refused('POST', '/v1/beneficiaries/crypto', body)).toBe(`${field}: is required`);
    });

    it.each([
      ['an unknown field (a misspelt iban)', { ...BANK, ibna: 'DE89370400440532013000' }, /^ibna: is not a recognised parameter$/],
      ['a crypto field on a bank beneficiary', { ...BANK, chainName: 'ETHEREUM_SEPOLIA' }, /^chainName: is not a recognised parameter$/],
      ['a malformed accountId', { ...BANK, accountId: 'acct_nope' }, /^accountId: must be an account id/],
      ['a method outside the list', { ...BANK, method: 'CHEQUE' }, /^method: must be one of WIRE, SWIFT, SEPA, ACH, FASTER_PAYMENTS$/],
      ['an entityType outside the list', { ...BANK, entityType: 'TRUST' }, /^entityType: must be one of INDIVIDUAL, BUSINESS$/],
      ['a number where a string goes', { ...BANK, nickname: 42 }, /^nickname: must be a string$/],
      ['a number as an optional field', { ...BANK, email: 7 }, /^email: must be a string$/],
      ['21 tags', { ...BANK, tags: Array.from({ length: 21 }, (_, index) => `t${index}`) }, /^tags: must be an array of at most 20 strings$/],
      ['a tag of 101 characters', { ...BANK, tags: ['x'.repeat(101)] }, /^tags: each tag must be a string of at most 100 characters$/],
      ['a tag that is not a string', { ...BANK, tags: [1] }, /^tags: each tag must be/],
      ['tags that are not an array', { ...BANK, tags: 'supplier' }, /^tags: must be an array/],
      ['51 metadata keys', { ...BANK, metadata: Object.fromEntries(Array.from({ length: 51 }, (_, index) => [`k${index}`, 'v'])) }, /^metadata: at most 50 keys$/],
      ['a metadata value that is not a string', { ...BANK, metadata: { count: 3 } }, /^metadata: values must be strings \("count" is not\)$/],
      ['metadata over 4096 bytes', { ...BANK, metadata: { blob: 'x'.repeat(4096) } }, /^metadata: must be at most 4096 bytes serialized as JSON$/],
      ['metadata that is an array', { ...BANK, metadata: ['v'] }, /^metadata: must be an object of string values$/],
      ['a blank metadata key', { ...BANK, metadata: { ' ': 'v' } }, /^metadata: keys must not be blank$/],
    ])('a bank beneficiary with %s', async (_label, body, message) => {
      expect(await refused('POST', '/v1/beneficiaries/bank', body)).toMatch(message);
    });

    it('accepts spec 8’s limits exactly: 20 tags of 100 characters, 50 metadata keys, 4096 bytes of metadata', async () => {
      const tags = Array.from({ length: 20 }, (_, index) => `${index}`.padEnd(100, 'x'));
      expect((await call('POST', '/v1/beneficiaries/bank', { ...BANK, tags })).status).toBe(201);
      const keys = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`k${index}`, 'v']));
      expect((await call('POST', '/v1/beneficiaries/bank', { ...BANK, metadata: keys })).status).toBe(201);
      // {"blob":"…"} is 11 bytes of JSON around the value; a multi-byte character counts its UTF-8 bytes.
      const blob = { blob: 'é'.repeat(2040) + 'x'.repeat(5) };
      expect(Buffer.byteLength(JSON.stringify(blob))).toBe(4096);
      expect((await call('POST', '/v1/beneficiaries/bank', { ...BANK, metadata: blob })).status).toBe(201);
      expect(sent).toHaveLength(3);
    });

    it.each([
      ['an unknown field', { nickname: 'x', ibna: 'DE89370400440532013000' }, /^ibna: is not a recognised parameter$/],
      ['a malformed accountId', { accountId: 'acct_nope' }, /^accountId: must be an account id/],
      ['a number', { email: 7 }, /^email: must be a string$/],
      ['21 tags', { tags: Array.from({ length: 21 }, (_, index) => `t${index}`) }, /^tags: must be an array of at most 20 strings$/],
      ['metadata over 4096 bytes', { metadata: { blob: 'x'.repeat(4096) } }, /^metadata: must be at most 4096 bytes/],
    ])('PATCH with %s', async (_label, body, message) => {
      expect(await refused('PATCH', `/v1/beneficiaries/${BENEFICIARY_ID}`, body)).toMatch(message);
    });

    it.each([
      ['type=PERSON', /^type: must be one of BANK, CRYPTO, SERVICENET$/],
      ['status=DELETED', /^status: must be one of ACTIVE, INACTIVE, BLOCKED, ARCHIVED$/],
      ['accountId=acct_nope', /^accountId: must be an account id/],
      ['limit=0', /^limit: /],
      ['chainName=TRON_NILE', /^chainName: is not a recognised parameter$/],
    ])('the list with %s', async (query, message) => {
      expect(await refused('GET', `/v1/beneficiaries?${query}`)).toMatch(message);
    });

    it('a malformed beneficiary id is an unknown beneficiary, on every route', async () => {
      for (const [method, path, body] of [
        ['GET', '/v1/beneficiaries/bene_nope', undefined],
        ['PATCH', '/v1/beneficiaries/bene_nope', { nickname: 'x' }],
        ['POST', '/v1/beneficiaries/acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c/archive', undefined],
        ['POST', '/v1/beneficiaries/bene_NOPE/unarchive', undefined],
        ['POST', '/v1/sandbox/beneficiaries/bene_nope/block', undefined],
        ['POST', '/v1/sandbox/beneficiaries/bene_nope/unblock', undefined],
      ] as const) {
        expectError(await call(method, path, body), 404, 'beneficiary_not_found');
      }
      expect(sent).toEqual([]);
    });

    it('Service-On-Behalf-Of, which no beneficiary route supports', async () => {
      const answer = await call('POST', '/v1/beneficiaries/bank', BANK, { headers: { 'Service-On-Behalf-Of': routes.org.organizationId } });
      expectError(answer, 400, 'invalid_request');
      expect(sent).toEqual([]);
    });
  });

  describe('in production', () => {
    let production: TestGateway;

    beforeAll(async () => {
      production = await startTestGateway({ env: { SERVICE_ENV: 'production', API_KEY_PEPPER: 'e2e-production-pepper', IDEMPOTENCY_REPLAY_KEY: 'e2e-production-replay-key' } });
    }, 60000);

    afterAll(async () => {
      await production?.close();
    });

    it('answers the sandbox block and unblock 404 not_found exactly like an unknown route, and leaves them out of the document', async () => {
      const unknown = expectError(await production.request('/v1/sandbox/nothing-here', { method: 'POST', body: {} }), 404, 'not_found');
      for (const action of ['block', 'unblock']) {
        const answer = await production.request(`/v1/sandbox/beneficiaries/${BENEFICIARY_ID}/${action}`, { method: 'POST' });
        expect(expectError(answer, 404, 'not_found').message).toBe(unknown.message);
      }
      const document = (await production.request('/openapi.json')).json<{ paths: Record<string, unknown> }>();
      expect(Object.keys(document.paths).filter((path) => path.includes('beneficiaries'))).toEqual([
        '/v1/beneficiaries/bank',
        '/v1/beneficiaries/crypto',
        '/v1/beneficiaries/servicenet',
        '/v1/beneficiaries',
        '/v1/beneficiaries/{beneficiaryId}',
        '/v1/beneficiaries/{beneficiaryId}/archive',
        '/v1/beneficiaries/{beneficiaryId}/unarchive',
      ]);
      expect(sent).toEqual([]);
    });
  });
});
