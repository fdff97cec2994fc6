import { randomInt, randomUUID } from 'node:crypto';
import type { BeneficiaryView } from '@pfs/contracts';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { eventually, isolateQueues, testDatabaseUrl } from '@pfs/testing';
import { send, type Answer, type RequestOptions } from '../support/http-client';
import { expectError, startE2eStack, type CreatedOrganization, type E2eStack } from './support/e2e-stack';

const queuePrefix = isolateQueues('gw-e2e-beneficiaries');

type Beneficiary = BeneficiaryView;
type Body = Record<string, unknown>;

/** `n` random decimal digits, so every account number and tax id of this file is its own. */
const digits = (n: number): string => Array.from({ length: n }, () => randomInt(10)).join('');

/** An IBAN with correct check digits (ISO 13616: mod 97 of the rearranged number is 1). */
function ibanOf(country: string, bban: string): string {
  const numeric = `${bban}${country}00`.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  const check = 98n - (BigInt(numeric) % 97n);
  return `${country}${String(check).padStart(2, '0')}${bban}`;
}
/** A German IBAN (bank code 37040044, a random 10-digit account). */
const germanIban = (): string => ibanOf('DE', `37040044${digits(10)}`);
/** A random all-lower-case EVM address: valid without a checksum to check. */
const evmAddress = (): string => `0x${Array.from({ length: 40 }, () => '0123456789abcdef'[randomInt(16)]).join('')}`;

/** Published vectors of EIP-55 and real Solana and Tron addresses. */
const EIP55 = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const EIP55_BROKEN = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD';
const SOLANA = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/** Every key anywhere in a JSON value, for "never returned" checks. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
}

/*
 * Beneficiaries end to end, every app its own process: the validation of spec 4.4
 * and api-decisions §7 (a passing and a failing case per rule, nothing created by a refusal),
 * account numbers and tax ids kept out of responses, logs and the database, PATCH's null,
 * the lifecycle, isolation between organizations, idempotent creation, duplicates and the list.
 */
describe('beneficiaries (end to end)', () => {
  let e2e: E2eStack;
  let prisma: PrismaClient;
  let owner: CreatedOrganization;
  let stranger: CreatedOrganization;
  let validator: CreatedOrganization;
  /** A second account of the owner. */
  let otherAccountId: string;

  const call = (path: string, options: RequestOptions = {}) => send(e2e.baseUrl, path, options);
  const write = (method: string, path: string, key: string, body?: unknown, idempotencyKey: string = randomUUID()) =>
    call(path, { method, key, body, headers: { 'Idempotency-Key': idempotencyKey } });
  const read = (path: string, key = owner.apiKey) => call(path, { key });

  const bankBody = (overrides: Body = {}, accountId = owner.accountId): Body => ({
    accountId,
    nickname: 'Supplier (USD)',
    bankName: 'JPMorgan Chase',
    method: 'WIRE',
    currency: 'USD',
    swiftCode: 'CHASUS33',
    accountNumber: digits(12),
    bankCountry: 'US',
    ...overrides,
  });
  const cryptoBody = (overrides: Body = {}, accountId = owner.accountId): Body => ({
    accountId,
    nickname: 'Treasury wallet',
    chainName: 'ETHEREUM_SEPOLIA',
    address: evmAddress(),
    ...overrides,
  });
  /** Overrides with `undefined` remove the field. */
  const without = (body: Body): Body => Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));

  const createBank = (overrides: Body = {}, key = owner.apiKey, accountId = owner.accountId) =>
    write('POST', '/v1/beneficiaries/bank', key, without(bankBody(overrides, accountId)));
  const createCrypto = (overrides: Body = {}, key = owner.apiKey, accountId = owner.accountId) =>
    write('POST', '/v1/beneficiaries/crypto', key, without(cryptoBody(overrides, accountId)));
  const created = (answer: Answer): Beneficiary => {
    expect({ status: answer.status, text: answer.text }).toEqual({ status: 201, text: expect.any(String) });
    return answer.json<Beneficiary>();
  };
  const patch = (id: string, changes: Body, key = owner.apiKey) => write('PATCH', `/v1/beneficiaries/${id}`, key, changes);

  /** Every beneficiary of the list, walking the cursors. */
  const listAll = async (key: string, query = ''): Promise<Beneficiary[]> => {
    const found: Beneficiary[] = [];
    let cursor: string | null = null;
    do {
      const page: Answer = await call(`/v1/beneficiaries?limit=100${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key });
      expect(page.status).toBe(200);
      const body = page.json<{ data: Beneficiary[]; nextCursor: string | null }>();
      found.push(...body.data);
      cursor = body.nextCursor;
    } while (cursor);
    return found;
  };

  /** An organization with its primary account (the CLI's org:create answers once the ledger has opened it). */
  const organization = async (label: string): Promise<CreatedOrganization> => {
    const org = await e2e.createOrganization(label);
    await eventually(async () => ((await read(`/v1/accounts/${org.accountId}`, org.apiKey)).status === 200 ? true : undefined), 15000, 100);
    return org;
  };

  beforeAll(async () => {
    // The shared stack logs at info; that the debug lines of a command's and an event's hops
    // carry no payload is libs/messaging/test/request-context.spec.ts's.
    e2e = await startE2eStack(queuePrefix, { RATE_LIMIT_PER_MINUTE: '100000' });
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 2, applicationName: 'gateway-e2e-beneficiaries' });
    [owner, stranger, validator] = await Promise.all([organization('e2e bene owner'), organization('e2e bene stranger'), organization('e2e bene validator')]);
    const opened = await write('POST', '/v1/accounts', owner.apiKey, { name: 'Payables' });
    expect(opened.status).toBe(201);
    otherAccountId = opened.json<{ accountId: string }>().accountId;
  }, 180000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await e2e?.stop();
  }, 60000);

  describe('creating', () => {
    it('registers a bank beneficiary as spec 2.5 with the bank object of api-decisions §7, and reads it back', async () => {
      const accountNumber = digits(10);
      const answer = await createBank({
        nickname: '  Supplier GmbH  ',
        bankName: 'Deutsche Bank',
        method: 'SEPA',
        currency: 'eur',
        swiftCode: 'deutdeff',
        accountNumber,
        bankCountry: 'de',
        iban: 'de89 3704 0044 0532 0130 00',
        bankAddressLine1: 'Taunusanlage 12',
        bankCity: 'Frankfurt am Main',
        bankRegion: 'Hesse',
        bankZipCode: '60325',
        intermediaryBankName: 'Chase',
        intermediarySwiftCode: 'CHASUS33',
        intermediaryBankAddress: '383 Madison Avenue, New York',
        entityType: 'BUSINESS',
        email: 'payables@supplier.example',
        phoneNumber: '+49 69 123456',
        legalName: 'Supplier Gesellschaft mbH',
        businessName: 'Supplier GmbH',
        registrationNumber: 'HRB 12345',
        addressLine1: 'Mainzer Landstraße 1',
        addressLine2: '3. OG',
        city: 'Frankfurt',
        region: 'Hesse',
        zipCode: '60329',
        country: 'de',
        taxId: `DE${digits(9)}`,
        taxIdType: 'vat',
        tags: ['supplier', 'eu'],
        metadata: { erpId: 'V-1042' },
      });
      const beneficiary = created(answer);
      expect(beneficiary).toEqual({
        object: 'beneficiary',
        beneficiaryId: expect.stringMatching(/^bene_[0-9a-f]{32}$/),
        accountId: owner.accountId,
        type: 'BANK',
        nickname: 'Supplier GmbH',
        status: 'ACTIVE',
        entityType: 'BUSINESS',
        email: 'payables@supplier.example',
        phoneNumber: '+4969123456',
        firstName: null,
        lastName: null,
        legalName: 'Supplier Gesellschaft mbH',
        dateOfBirth: null,
        businessName: 'Supplier GmbH',
        registrationNumber: 'HRB 12345',
        country: 'DE',
        addressLine1: 'Mainzer Landstraße 1',
        addressLine2: '3. OG',
        city: 'Frankfurt',
        region: 'Hesse',
        zipCode: '60329',
        taxIdType: 'VAT',
        tags: ['supplier', 'eu'],
        metadata: { erpId: 'V-1042' },
        crypto: null,
        bank: {
          bankName: 'Deutsche Bank',
          method: 'SEPA',
          currency: 'EUR',
          swiftCode: 'DEUTDEFF',
          bankCountry: 'DE',
          iban: 'DE89370400440532013000',
          routingNumber: null,
          accountNumberLast4: accountNumber.slice(-4),
          bankAddressLine1: 'Taunusanlage 12',
          bankCity: 'Frankfurt am Main',
          bankRegion: 'Hesse',
          bankZipCode: '60325',
          intermediaryBankName: 'Chase',
          intermediarySwiftCode: 'CHASUS33',
          intermediaryBankAddress: '383 Madison Avenue, New York',
        },
        servicenet: null,
        duplicateOf: null,
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        updatedAt: beneficiary.createdAt,
      });
      expect((await read(`/v1/beneficiaries/${beneficiary.beneficiaryId}`)).json()).toEqual(beneficiary);
      expect((await listAll(owner.apiKey)).find((item) => item.beneficiaryId === beneficiary.beneficiaryId)).toEqual(beneficiary);
    });

    it('registers a crypto beneficiary with the crypto object of spec 2.5, its EVM address checksummed', async () => {
      const beneficiary = created(await createCrypto({ address: EIP55.toLowerCase(), asset: 'usdc', entityType: 'INDIVIDUAL', firstName: 'Ada', lastName: 'Lovelace' }));
      expect(beneficiary).toMatchObject({
        type: 'CRYPTO',
        status: 'ACTIVE',
        bank: null,
        servicenet: null,
        entityType: 'INDIVIDUAL',
        firstName: 'Ada',
        lastName: 'Lovelace',
        crypto: { chainName: 'ETHEREUM_SEPOLIA', chainDisplayName: 'Ethereum Sepolia', platform: 'EVM', address: EIP55, asset: 'USDC' },
      });
      for (const [chainName, address, platform] of [
        ['SOLANA_DEVNET', SOLANA, 'SOLANA'],
        ['TRON_NILE', TRON, 'TRON'],
      ] as const) {
        const other = created(await createCrypto({ chainName, address }));
        expect(other.crypto).toEqual({ chainName, chainDisplayName: expect.any(String), platform, address, asset: null });
      }
    });
  });

  describe('validation: a passing and a failing case per rule; a refusal names the field and creates nothing', () => {
    const sepa = (overrides: Body = {}): Body => ({ bankName: 'Deutsche Bank', method: 'SEPA', currency: 'EUR', swiftCode: 'DEUTDEFF', bankCountry: 'DE', iban: germanIban(), ...overrides });

    /**
     * [rule, kind, a body that passes, a body that fails, the field the refusal names]. Each rule
     * of spec 4.4 is proven with its failing case by the domain specs (bank-details.spec.ts,
     * crypto-details.spec.ts, beneficiary.spec.ts of the beneficiary service); here a bank and a
     * crypto rule show the wiring, with the rules those specs do not name.
     */
    const RULES: ReadonlyArray<readonly [string, 'bank' | 'crypto', Body, Body, string]> = [
      ['IBAN check digits', 'bank', sepa(), sepa({ iban: 'DE89370400440532013001' }), 'iban'],
      ['IBAN country format (length)', 'bank', sepa({ iban: 'DE89 3704 0044 0532 0130 00' }), sepa({ iban: 'DE8937040044053201300' }), 'iban'],
      ['country of two letters', 'bank', { country: 'US' }, { country: 'USA' }, 'country'],
      ['account number format', 'bank', { accountNumber: `12-3456 ${digits(6)}` }, { accountNumber: '12' }, 'accountNumber'],
      ['nickname not blank', 'bank', { nickname: 'Payee' }, { nickname: '   ' }, 'nickname'],
      ['unknown fields refused', 'bank', { iban: null }, { ibna: 'DE89370400440532013000' }, 'ibna'],
      ['EVM address, EIP-55 checksum when mixed case', 'crypto', { address: EIP55 }, { address: EIP55_BROKEN }, 'address'],
      ['EVM address on every EVM chain', 'crypto', { chainName: 'BSC_TESTNET', address: EIP55 }, { chainName: 'BSC_TESTNET', address: SOLANA }, 'address'],
      ['crypto identity fields checked too', 'crypto', { email: 'ops@example.com', country: 'ch' }, { email: 'ops@', country: 'ch' }, 'email'],
    ];

    const createFor = (kind: 'bank' | 'crypto', overrides: Body) => (kind === 'bank' ? createBank(overrides, validator.apiKey, validator.accountId) : createCrypto(overrides, validator.apiKey, validator.accountId));

    it.each(RULES)('%s', async (_rule, kind, passing, failing, field) => {
      const passed = await createFor(kind, passing);
      expect({ status: passed.status, text: passed.text }).toEqual({ status: 201, text: expect.any(String) });

      const before = (await listAll(validator.apiKey)).map((item) => item.beneficiaryId);
      const refused = expectError(await createFor(kind, failing), 400, 'invalid_request');
      // The message starts with the field's wire name (`tags[3]: …` or `metadata.count: …` for an element).
      expect(refused.message).toMatch(new RegExp(`^${field}(\\[\\d+\\]|\\.[^:]+)?: \\S`));
      expect((await listAll(validator.apiKey)).map((item) => item.beneficiaryId)).toEqual(before);
    });

    it('answers the normalized values of what passed (E.164 phone, upper-cased codes, compact identifiers)', async () => {
      const beneficiary = created(
        await createBank(
          { phoneNumber: '(415) 555-2671', country: 'us', bankCountry: 'us', swiftCode: 'chas us 33', iban: null, accountNumber: `00-12 ${digits(6)}`, taxIdType: 'ssn' },
          validator.apiKey,
          validator.accountId,
        ),
      );
      expect(beneficiary).toMatchObject({ phoneNumber: '+14155552671', country: 'US', taxIdType: 'SSN', bank: { bankCountry: 'US', swiftCode: 'CHASUS33', iban: null } });
    });
  });

  describe('account numbers and tax ids', () => {
    it('are never returned, logged or stored in the clear', async () => {
      const secrets = { accountNumber: digits(14), taxId: `${digits(3)}-${digits(2)}-${digits(4)}`, nextAccountNumber: digits(13), nextTaxId: digits(11), cryptoTaxId: digits(12) };
      const answers: Answer[] = [];
      const keep = async (answer: Promise<Answer>): Promise<Answer> => {
        const settled = await answer;
        answers.push(settled);
        return settled;
      };

      const bank = created(await keep(createBank({ accountNumber: secrets.accountNumber, taxId: secrets.taxId, taxIdType: 'SSN', entityType: 'INDIVIDUAL', firstName: 'Ada', lastName: 'Lovelace' })));
      expect(bank.bank?.accountNumberLast4).toBe(secrets.accountNumber.slice(-4));
      const crypto = created(await keep(createCrypto({ taxId: secrets.cryptoTaxId, taxIdType: 'TIN' })));
      await keep(read(`/v1/beneficiaries/${bank.beneficiaryId}`));
      await keep(read(`/v1/beneficiaries/${crypto.beneficiaryId}`));
      await keep(read('/v1/beneficiaries?limit=100'));
      const changed = await keep(patch(bank.beneficiaryId, { accountNumber: secrets.nextAccountNumber, taxId: secrets.nextTaxId, nickname: 'Ada (new account)' }));
      expect(changed.status).toBe(200);
      expect(changed.json<Beneficiary>().bank?.accountNumberLast4).toBe(secrets.nextAccountNumber.slice(-4));
      await keep(write('POST', `/v1/beneficiaries/${bank.beneficiaryId}/archive`, owner.apiKey));
      await keep(write('POST', `/v1/beneficiaries/${bank.beneficiaryId}/unarchive`, owner.apiKey));
      // A refusal must not echo them either.
      expectError(await keep(patch(bank.beneficiaryId, { accountNumber: `${secrets.accountNumber}!` })), 400, 'invalid_request');

      const values = Object.values(secrets);
      for (const answer of answers) {
        for (const value of values) expect({ response: answer.text.includes(value) }).toEqual({ response: false });
        const keys = answer.status < 300 ? keysOf(answer.json()) : [];
        expect(keys.filter((key) => key === 'accountNumber' || key === 'taxId')).toEqual([]);
      }

      // Logs: every app, every line so far, once the gateway has logged the last of these
      // requests (at the shared stack's info level the services log no line per command).
      const requestId = answers[answers.length - 1]?.headers.get('x-request-id') ?? '';
      await eventually(async () => (e2e.gatewayLog().some((line) => line.requestId === requestId) ? true : undefined), 15000, 100);
      for (const [app, running] of e2e.stack.apps) {
        for (const value of values) {
          expect({ app, value, logged: running.output.filter((line) => line.includes(value)) }).toEqual({ app, value, logged: [] });
        }
      }

      // The database: every text, JSON and array column of every table of the service's schema.
      const columns = await prisma.$queryRawUnsafe<Array<{ table: string; column: string }>>(
        `SELECT table_name AS "table", column_name AS "column" FROM information_schema.columns
          WHERE table_schema = 'beneficiary' AND data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY')`,
      );
      expect(columns.map(({ table }) => table)).toEqual(expect.arrayContaining(['beneficiaries', 'command_log']));
      for (const { table, column } of columns) {
        for (const value of values) {
          const [row] = await prisma.$queryRawUnsafe<Array<{ found: number }>>(
            `SELECT count(*)::int AS found FROM "beneficiary"."${table}" WHERE "${column}"::text LIKE $1`,
            `%${value}%`,
          );
          expect({ table, column, value, found: row?.found }).toEqual({ table, column, value, found: 0 });
        }
      }
      // The same scan finds what is stored in the clear, e.g. the beneficiary's id.
      let scanned = 0;
      for (const { table, column } of columns) {
        const [row] = await prisma.$queryRawUnsafe<Array<{ found: number }>>(
          `SELECT count(*)::int AS found FROM "beneficiary"."${table}" WHERE "${column}"::text LIKE $1`,
          `%${bank.beneficiaryId}%`,
        );
        scanned += row?.found ?? 0;
      }
      expect(scanned).toBeGreaterThan(0);
      const [stored] = await prisma.$queryRawUnsafe<Array<{ rows: number }>>(
        `SELECT count(*)::int AS rows FROM beneficiary.beneficiaries WHERE id IN ($1, $2)`,
        bank.beneficiaryId,
        crypto.beneficiaryId,
      );
      expect(stored?.rows).toBe(2);
    });
  });

  describe('PATCH', () => {
    /** What a beneficiary looks like apart from what a change touches. */
    const rest = (beneficiary: Beneficiary, field: string, inBank: boolean): Body => {
      const { updatedAt: _updatedAt, ...top } = beneficiary;
      if (!inBank) return { ...top, [field]: 'changed' };
      return { ...top, bank: { ...beneficiary.bank, [field]: 'changed' } };
    };

    /**
     * [field, a value to set, what is answered for it, whether it sits in `bank`, the beneficiary's
     * base fields]. That null clears each identity field is the domain's (beneficiary.spec.ts of
     * the beneficiary service); here the wire's null, for the fields that spec does not name.
     */
    const CLEARABLE: ReadonlyArray<readonly [string, unknown, unknown, boolean, Body]> = [
      ['email', 'ada@example.com', 'ada@example.com', false, {}],
      ['firstName', 'Ada', 'Ada', false, {}],
      ['lastName', 'Lovelace', 'Lovelace', false, {}],
      ['tags', ['supplier'], ['supplier'], false, {}],
      ['metadata', { erpId: 'V-7' }, { erpId: 'V-7' }, false, {}],
      ['routingNumber', '026009593', '026009593', true, {}],
      ['bankAddressLine1', '383 Madison Avenue', '383 Madison Avenue', true, {}],
      ['bankCity', 'New York', 'New York', true, {}],
      ['bankRegion', 'NY', 'NY', true, {}],
      ['bankZipCode', '10179', '10179', true, {}],
      ['intermediaryBankName', 'Citibank', 'Citibank', true, {}],
      ['intermediarySwiftCode', 'citius33', 'CITIUS33', true, {}],
      ['intermediaryBankAddress', '388 Greenwich St, New York', '388 Greenwich St, New York', true, {}],
      ['iban', germanIban(), expect.stringMatching(/^DE\d{20}$/), true, { bankCountry: 'DE', swiftCode: 'DEUTDEFF', currency: 'EUR' }],
    ];

    it.each(CLEARABLE)('sets %s, then clears it with null', async (field, value, answered, inBank, base) => {
      const beneficiary = created(await createBank(base));
      const set = await patch(beneficiary.beneficiaryId, { [field]: value });
      expect({ status: set.status, text: set.text }).toEqual({ status: 200, text: expect.any(String) });
      const withValue = set.json<Beneficiary>();
      expect(inBank ? (withValue.bank as unknown as Body)[field] : (withValue as unknown as Body)[field]).toEqual(answered);
      expect(rest(withValue, field, inBank)).toEqual(rest(beneficiary, field, inBank));

      const cleared = await patch(beneficiary.beneficiaryId, { [field]: null });
      expect(cleared.status).toBe(200);
      const empty = field === 'tags' ? [] : field === 'metadata' ? {} : null;
      const answer = cleared.json<Beneficiary>();
      expect(inBank ? (answer.bank as unknown as Body)[field] : (answer as unknown as Body)[field]).toEqual(empty);
      expect(rest(answer, field, inBank)).toEqual(rest(beneficiary, field, inBank));
      expect((await read(`/v1/beneficiaries/${beneficiary.beneficiaryId}`)).json()).toEqual(answer);
    });

    it('sets the tax id and clears it with null (write-only: seen only as its sealed column)', async () => {
      const beneficiary = created(await createBank({ taxIdType: 'SSN' }));
      const sealed = async () =>
        (await prisma.$queryRawUnsafe<Array<{ sealed: string | null }>>(`SELECT tax_id_sealed AS sealed FROM beneficiary.beneficiaries WHERE id = $1`, beneficiary.beneficiaryId))[0]?.sealed;
      expect(await sealed()).toBeNull();
      expect((await patch(beneficiary.beneficiaryId, { taxId: digits(9) })).status).toBe(200);
      expect(await sealed()).toEqual(expect.any(String));
      const cleared = await patch(beneficiary.beneficiaryId, { taxId: null });
      expect(cleared.status).toBe(200);
      expect(await sealed()).toBeNull();
      expect(cleared.json<Beneficiary>().taxIdType).toBe('SSN');
    });

    // Every field that cannot be cleared is the domain's (beneficiary.spec.ts); two show the answer.
    it.each(['accountId', 'accountNumber'])(
      'refuses to clear %s (400 invalid_request naming it), changing nothing',
      async (field) => {
        const beneficiary = created(await createBank({ entityType: 'BUSINESS', businessName: 'Acme' }));
        const refused = expectError(await patch(beneficiary.beneficiaryId, { [field]: null, email: 'changed@example.com' }), 400, 'invalid_request');
        expect(refused.message).toBe(`${field}: cannot be cleared`);
        expect((await read(`/v1/beneficiaries/${beneficiary.beneficiaryId}`)).json()).toEqual(beneficiary);
      },
    );

    it('refuses to clear a crypto beneficiary’s address, and re-validates a new one against its chain', async () => {
      const beneficiary = created(await createCrypto({ chainName: 'TRON_NILE', address: TRON }));
      expect(expectError(await patch(beneficiary.beneficiaryId, { address: null }), 400, 'invalid_request').message).toBe('address: cannot be cleared');
      expect(expectError(await patch(beneficiary.beneficiaryId, { address: EIP55 }), 400, 'invalid_request').message).toMatch(/^address: /);
      expect((await read(`/v1/beneficiaries/${beneficiary.beneficiaryId}`)).json()).toEqual(beneficiary);
      const moved = await patch(beneficiary.beneficiaryId, { address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7' });
      expect(moved.status).toBe(200);
      expect(moved.json<Beneficiary>().crypto).toMatchObject({ chainName: 'TRON_NILE', address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7' });
    });

    it('keeps the rules across fields on the result, and each kind’s own fields', async () => {
      const person = created(await createBank({ entityType: 'INDIVIDUAL', firstName: 'Ada', lastName: 'Lovelace' }));
      expect(expectError(await patch(person.beneficiaryId, { lastName: null }), 400, 'invalid_request').message).toMatch(/^lastName: /);
      const sepa = created(await createBank({ method: 'SEPA', currency: 'EUR', bankCountry: 'DE', swiftCode: 'DEUTDEFF', iban: germanIban() }));
      expect(expectError(await patch(sepa.beneficiaryId, { iban: null }), 400, 'invalid_request').message).toMatch(/^iban: /);
      expect(expectError(await patch(sepa.beneficiaryId, { currency: 'USD' }), 400, 'invalid_request').message).toMatch(/^currency: /);
      expect(expectError(await patch(sepa.beneficiaryId, { address: EIP55 }), 400, 'invalid_request').message).toMatch(/^address: /);
      const wallet = created(await createCrypto());
      expect(expectError(await patch(wallet.beneficiaryId, { bankName: 'Chase' }), 400, 'invalid_request').message).toMatch(/^bankName: /);
      expect(expectError(await patch(wallet.beneficiaryId, { ibna: 'x' }), 400, 'invalid_request').message).toBe('ibna: is not a recognised parameter');
      for (const beneficiary of [person, sepa, wallet]) expect((await read(`/v1/beneficiaries/${beneficiary.beneficiaryId}`)).json()).toEqual(beneficiary);

      const business = await patch(person.beneficiaryId, { entityType: 'BUSINESS', businessName: 'Lovelace & Co', nickname: 'Renamed' });
      expect(business.json()).toMatchObject({ entityType: 'BUSINESS', businessName: 'Lovelace & Co', firstName: 'Ada', lastName: 'Lovelace', nickname: 'Renamed' });
      const unchanged = await patch(person.beneficiaryId, {});
      expect(unchanged.status).toBe(200);
      expect(unchanged.json()).toMatchObject({ entityType: 'BUSINESS', nickname: 'Renamed' });
    });

    it('moves a beneficiary to another account of the organization, never to another organization’s', async () => {
      const beneficiary = created(await createBank());
      const moved = await patch(beneficiary.beneficiaryId, { accountId: otherAccountId });
      expect(moved.status).toBe(200);
      expect(moved.json<Beneficiary>().accountId).toBe(otherAccountId);
      expect((await listAll(owner.apiKey, `&accountId=${otherAccountId}`)).map((item) => item.beneficiaryId)).toContain(beneficiary.beneficiaryId);
      expectError(await patch(beneficiary.beneficiaryId, { accountId: stranger.accountId }), 404, 'account_not_found');
      expect((await read(`/v1/beneficiaries/${beneficiary.beneficiaryId}`)).json<Beneficiary>().accountId).toBe(otherAccountId);
    });
  });

  describe('lifecycle', () => {
    const move = (id: string, action: 'archive' | 'unarchive' | 'block' | 'unblock') =>
      write('POST', action === 'block' || action === 'unblock' ? `/v1/sandbox/beneficiaries/${id}/${action}` : `/v1/beneficiaries/${id}/${action}`, owner.apiKey);
    const statusOf = async (id: string) => (await read(`/v1/beneficiaries/${id}`)).json<Beneficiary>().status;

    it('archives and unarchives, with 409 beneficiary_already_archived and beneficiary_not_archived', async () => {
      const { beneficiaryId } = created(await createBank());
      expectError(await move(beneficiaryId, 'unarchive'), 409, 'beneficiary_not_archived');
      const archived = await move(beneficiaryId, 'archive');
      expect(archived.status).toBe(200);
      expect(archived.json<Beneficiary>().status).toBe('ARCHIVED');
      expectError(await move(beneficiaryId, 'archive'), 409, 'beneficiary_already_archived');
      expectError(await patch(beneficiaryId, { nickname: 'Changed' }), 409, 'beneficiary_already_archived');
      expectError(await move(beneficiaryId, 'block'), 409, 'beneficiary_already_archived');
      expectError(await move(beneficiaryId, 'unblock'), 409, 'beneficiary_already_archived');
      expect(await statusOf(beneficiaryId)).toBe('ARCHIVED');
      expect((await read(`/v1/beneficiaries/${beneficiaryId}`)).json<Beneficiary>().nickname).toBe('Supplier (USD)');

      const restored = await move(beneficiaryId, 'unarchive');
      expect(restored.status).toBe(200);
      expect(restored.json<Beneficiary>().status).toBe('ACTIVE');
      expectError(await move(beneficiaryId, 'unarchive'), 409, 'beneficiary_not_archived');
      expect((await patch(beneficiaryId, { nickname: 'Changed' })).status).toBe(200);
    });

    it('blocks and unblocks in the sandbox; a blocked beneficiary is frozen with 409 beneficiary_blocked', async () => {
      const { beneficiaryId } = created(await createCrypto());
      const blocked = await move(beneficiaryId, 'block');
      expect(blocked.status).toBe(200);
      expect(blocked.json<Beneficiary>().status).toBe('BLOCKED');
      expectError(await move(beneficiaryId, 'block'), 409, 'beneficiary_blocked');
      expectError(await patch(beneficiaryId, { nickname: 'Changed' }), 409, 'beneficiary_blocked');
      expectError(await move(beneficiaryId, 'archive'), 409, 'beneficiary_blocked');
      expectError(await move(beneficiaryId, 'unarchive'), 409, 'beneficiary_not_archived');
      expect(await statusOf(beneficiaryId)).toBe('BLOCKED');

      const unblocked = await move(beneficiaryId, 'unblock');
      expect(unblocked.status).toBe(200);
      expect(unblocked.json<Beneficiary>().status).toBe('ACTIVE');
      expect(expectError(await move(beneficiaryId, 'unblock'), 400, 'invalid_request').message).toMatch(/^status: /);
      expect((await move(beneficiaryId, 'archive')).status).toBe(200);
    });
  });

  describe('isolation between organizations', () => {
    it('answers another organization 404 beneficiary_not_found on every route and leaves it out of its list', async () => {
      const beneficiary = created(await createBank());
      const id = beneficiary.beneficiaryId;
      expectError(await read(`/v1/beneficiaries/${id}`, stranger.apiKey), 404, 'beneficiary_not_found');
      expectError(await patch(id, { nickname: 'Mine now' }, stranger.apiKey), 404, 'beneficiary_not_found');
      expectError(await patch(id, { nickname: null }, stranger.apiKey), 404, 'beneficiary_not_found');
      for (const path of [`/v1/beneficiaries/${id}/archive`, `/v1/beneficiaries/${id}/unarchive`, `/v1/sandbox/beneficiaries/${id}/block`, `/v1/sandbox/beneficiaries/${id}/unblock`]) {
        expectError(await write('POST', path, stranger.apiKey), 404, 'beneficiary_not_found');
      }
      const theirs = await listAll(stranger.apiKey);
      expect(theirs.map((item) => item.beneficiaryId)).not.toContain(id);
      expect(await listAll(stranger.apiKey, `&accountId=${owner.accountId}`)).toEqual([]);
      expect((await read(`/v1/beneficiaries/${id}`)).json()).toEqual(beneficiary);

      // An unknown, well-formed id answers the same.
      expectError(await read('/v1/beneficiaries/bene_00000000000000000000000000000000'), 404, 'beneficiary_not_found');
    });

    it('answers every route 401 missing_api_key without a key', async () => {
      const id = 'bene_00000000000000000000000000000000';
      for (const [method, path, body] of [
        ['POST', '/v1/beneficiaries/bank', bankBody()],
        ['POST', '/v1/beneficiaries/crypto', cryptoBody()],
        ['GET', '/v1/beneficiaries', undefined],
        ['GET', `/v1/beneficiaries/${id}`, undefined],
        ['PATCH', `/v1/beneficiaries/${id}`, { nickname: 'x' }],
        ['POST', `/v1/beneficiaries/${id}/archive`, undefined],
        ['POST', `/v1/beneficiaries/${id}/unarchive`, undefined],
        ['POST', `/v1/sandbox/beneficiaries/${id}/block`, undefined],
        ['POST', `/v1/sandbox/beneficiaries/${id}/unblock`, undefined],
      ] as const) {
        expectError(await call(path, { method, body }), 401, 'missing_api_key');
      }
    });

    it('refuses a beneficiary on another organization’s account with 404 account_not_found, creating nothing', async () => {
      const before = await listAll(stranger.apiKey);
      expectError(await createBank({}, stranger.apiKey, owner.accountId), 404, 'account_not_found');
      expectError(await createCrypto({}, stranger.apiKey, owner.accountId), 404, 'account_not_found');
      expectError(await createBank({}, stranger.apiKey, 'acct_00000000000000000000000000000000'), 404, 'account_not_found');
      expect(await listAll(stranger.apiKey)).toEqual(before);
    });
  });

  describe('Idempotency-Key', () => {
    it('creates once for a key: the same request answers the same beneficiary, another request with it 422', async () => {
      const key = randomUUID();
      const nickname = `Idempotent ${randomUUID()}`;
      const body = bankBody({ nickname });
      const first = await write('POST', '/v1/beneficiaries/bank', owner.apiKey, body, key);
      const beneficiary = created(first);
      const again = await write('POST', '/v1/beneficiaries/bank', owner.apiKey, body, key);
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.json()).toEqual(beneficiary);

      expectError(await write('POST', '/v1/beneficiaries/bank', owner.apiKey, { ...body, nickname: `${nickname} (other)` }, key), 422, 'idempotency_key_in_use');
      expectError(await write('POST', '/v1/beneficiaries/crypto', owner.apiKey, cryptoBody(), key), 422, 'idempotency_key_in_use');
      const mine = (await listAll(owner.apiKey)).filter((item) => item.nickname.startsWith(nickname));
      expect(mine.map((item) => item.beneficiaryId)).toEqual([beneficiary.beneficiaryId]);
    });

    it('replays a PATCH and an archive with their key instead of applying them twice', async () => {
      const { beneficiaryId } = created(await createBank());
      const patchKey = randomUUID();
      const renamed = await write('PATCH', `/v1/beneficiaries/${beneficiaryId}`, owner.apiKey, { nickname: 'First name' }, patchKey);
      expect(renamed.status).toBe(200);
      expect((await patch(beneficiaryId, { nickname: 'Second name' })).status).toBe(200);
      const replayedPatch = await write('PATCH', `/v1/beneficiaries/${beneficiaryId}`, owner.apiKey, { nickname: 'First name' }, patchKey);
      expect({ status: replayedPatch.status, replayed: replayedPatch.headers.get('idempotent-replayed') }).toEqual({ status: 200, replayed: 'true' });
      expect(replayedPatch.json()).toEqual(renamed.json());
      expect((await read(`/v1/beneficiaries/${beneficiaryId}`)).json<Beneficiary>().nickname).toBe('Second name');

      const key = randomUUID();
      const archived = await write('POST', `/v1/beneficiaries/${beneficiaryId}/archive`, owner.apiKey, undefined, key);
      expect(archived.status).toBe(200);
      const replayed = await write('POST', `/v1/beneficiaries/${beneficiaryId}/archive`, owner.apiKey, undefined, key);
      expect(replayed.status).toBe(200);
      expect(replayed.json()).toEqual(archived.json());
      expectError(await write('POST', `/v1/beneficiaries/${beneficiaryId}/archive`, owner.apiKey), 409, 'beneficiary_already_archived');
    });
  });

  describe('duplicates', () => {
    it('flags a second bank beneficiary of the same account with the same destination, and only that', async () => {
      const accountNumber = digits(12);
      const first = created(await createBank({ accountNumber, swiftCode: 'CHASUS33' }));
      expect(first.duplicateOf).toBeNull();
      // The same account at the same bank: the BIC's branch code and the number's punctuation do not matter.
      const second = created(await createBank({ accountNumber: `${accountNumber.slice(0, 4)}-${accountNumber.slice(4)}`, swiftCode: 'CHASUS33XXX', nickname: 'Again' }));
      expect(second.duplicateOf).toBe(first.beneficiaryId);
      expect(created(await createBank({ accountNumber, swiftCode: 'BOFAUS3N' })).duplicateOf).toBeNull();
      expect(created(await createBank({ accountNumber }, owner.apiKey, otherAccountId)).duplicateOf).toBeNull();
      expect(created(await createCrypto()).duplicateOf).toBeNull();

      const iban = germanIban();
      const sepa = { method: 'SEPA', currency: 'EUR', bankCountry: 'DE', swiftCode: 'DEUTDEFF' };
      const byIban = created(await createBank({ ...sepa, iban }));
      const spaced = iban.replace(/(.{4})/g, '$1 ').trim().toLowerCase();
      expect(created(await createBank({ ...sepa, iban: spaced })).duplicateOf).toBe(byIban.beneficiaryId);
      expect((await read(`/v1/beneficiaries/${second.beneficiaryId}`)).json<Beneficiary>().duplicateOf).toBe(first.beneficiaryId);
    });

    it('flags a second crypto beneficiary with the same chain and address, whatever its case', async () => {
      const address = evmAddress();
      const first = created(await createCrypto({ address }));
      const checksummed = first.crypto?.address ?? '';
      expect(created(await createCrypto({ address: checksummed })).duplicateOf).toBe(first.beneficiaryId);
      expect(created(await createCrypto({ address, chainName: 'BASE_SEPOLIA' })).duplicateOf).toBeNull();
      expect(created(await createCrypto({ address }, owner.apiKey, otherAccountId)).duplicateOf).toBeNull();
    });
  });

  describe('the list', () => {
    let lister: CreatedOrganization;
    let second: string;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      lister = await organization('e2e bene lister');
      second = (await write('POST', '/v1/accounts', lister.apiKey, { name: 'Second' })).json<{ accountId: string }>().accountId;
      // Created one after the other, so "newest first" has one answer.
      for (const name of ['bank1', 'bank2', 'bank3']) ids[name] = created(await createBank({ nickname: name }, lister.apiKey, lister.accountId)).beneficiaryId;
      for (const name of ['wallet1', 'wallet2']) ids[name] = created(await createCrypto({ nickname: name }, lister.apiKey, second)).beneficiaryId;
      expect((await write('POST', `/v1/beneficiaries/${ids.bank2}/archive`, lister.apiKey)).status).toBe(200);
    }, 60000);

    const page = (query: string) => call(`/v1/beneficiaries${query}`, { key: lister.apiKey });
    const names = (items: Beneficiary[]) => items.map((item) => item.nickname);

    it('pages newest first with limit and cursor, X-Page-Size and X-Next-Cursor', async () => {
      const first = await page('?limit=2');
      expect(first.headers.get('x-page-size')).toBe('2');
      const firstBody = first.json<{ data: Beneficiary[]; hasMore: boolean; nextCursor: string }>();
      expect({ names: names(firstBody.data), hasMore: firstBody.hasMore }).toEqual({ names: ['wallet2', 'wallet1'], hasMore: true });
      expect(first.headers.get('x-next-cursor')).toBe(firstBody.nextCursor);

      const secondPage = await page(`?limit=2&cursor=${encodeURIComponent(firstBody.nextCursor)}`);
      const secondBody = secondPage.json<{ data: Beneficiary[]; nextCursor: string }>();
      expect(names(secondBody.data)).toEqual(['bank3', 'bank2']);
      const last = await page(`?limit=2&cursor=${encodeURIComponent(secondBody.nextCursor)}`);
      const lastBody = last.json<{ data: Beneficiary[]; hasMore: boolean; nextCursor: string | null }>();
      expect({ names: names(lastBody.data), hasMore: lastBody.hasMore, nextCursor: lastBody.nextCursor }).toEqual({ names: ['bank1'], hasMore: false, nextCursor: null });
      expect(last.headers.get('x-next-cursor')).toBeNull();
      expect(last.headers.get('x-page-size')).toBe('1');

      expect(names((await page('')).json<{ data: Beneficiary[] }>().data)).toEqual(['wallet2', 'wallet1', 'bank3', 'bank2', 'bank1']);
      expectError(await page(`?limit=2&cursor=${encodeURIComponent(firstBody.nextCursor)}&type=BANK`), 400, 'invalid_request');
      expectError(await page(`?limit=2&cursor=${encodeURIComponent(`${firstBody.nextCursor}x`)}`), 400, 'invalid_request');
      expectError(await page('?limit=101'), 400, 'invalid_request');
    });

    it('filters by accountId, type and status, combined', async () => {
      const filtered = async (query: string) => names(await listAll(lister.apiKey, query));
      expect(await filtered('&type=CRYPTO')).toEqual(['wallet2', 'wallet1']);
      expect(await filtered('&type=BANK')).toEqual(['bank3', 'bank2', 'bank1']);
      expect(await filtered(`&accountId=${second}`)).toEqual(['wallet2', 'wallet1']);
      expect(await filtered(`&accountId=${lister.accountId}`)).toEqual(['bank3', 'bank2', 'bank1']);
      expect(await filtered('&status=ARCHIVED')).toEqual(['bank2']);
      expect(await filtered('&type=BANK&status=ACTIVE')).toEqual(['bank3', 'bank1']);
      expect(await filtered(`&type=CRYPTO&accountId=${lister.accountId}`)).toEqual([]);
      expect(await filtered('&type=SERVICENET')).toEqual([]);
      expect(await filtered('&status=BLOCKED')).toEqual([]);
      expectError(await page('?type=bank'), 400, 'invalid_request');
      expectError(await page('?nickname=bank1'), 400, 'invalid_request');
    });
  });
});
