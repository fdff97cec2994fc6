import { DomainError } from '@pfs/contracts';
import { bankDestination, bankDetailsView, validBankBeneficiary, type BankBeneficiaryInput } from './bank-details';

const NOW = new Date('2026-03-10T12:00:00Z');

/** A valid SEPA beneficiary for an individual; each test breaks one field. */
const SEPA: BankBeneficiaryInput = {
  accountId: 'acct_1',
  nickname: 'Jane in Berlin',
  bankName: 'Commerzbank',
  method: 'SEPA',
  currency: 'EUR',
  swiftCode: 'COBADEFFXXX',
  accountNumber: '0532013000',
  bankCountry: 'DE',
  iban: 'DE89 3704 0044 0532 0130 00',
  entityType: 'INDIVIDUAL',
  firstName: 'Jane',
  lastName: 'Doe',
};

const ACH: BankBeneficiaryInput = {
  accountId: 'acct_1',
  nickname: 'Acme payroll',
  bankName: 'JPMorgan Chase',
  method: 'ACH',
  currency: 'USD',
  swiftCode: 'CHASUS33',
  accountNumber: '123456789012',
  bankCountry: 'US',
  routingNumber: '021000021',
  entityType: 'BUSINESS',
  businessName: 'Acme Inc.',
};

function refusal(body: BankBeneficiaryInput): DomainError {
  try {
    validBankBeneficiary(body, NOW);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected invalid_request');
}

/** Asserts `invalid_request` whose message starts with the field's wire name. */
function expectRefused(body: BankBeneficiaryInput, field: string): void {
  const error = refusal(body);
  expect(error.code).toBe('invalid_request');
  expect(error.message.startsWith(`${field}:`)).toBe(true);
}

describe('bank beneficiary validation', () => {
  it('accepts a SEPA individual and normalizes IBAN, BIC and codes', () => {
    const valid = validBankBeneficiary({ ...SEPA, bankCountry: 'de', currency: 'eur', swiftCode: 'coba de ff xxx' }, NOW);
    expect(valid.bank).toMatchObject({ iban: 'DE89370400440532013000', swiftCode: 'COBADEFFXXX', bankCountry: 'DE', currency: 'EUR', method: 'SEPA' });
    expect(valid.identity).toMatchObject({ entityType: 'INDIVIDUAL', firstName: 'Jane', lastName: 'Doe', email: null });
    expect(valid.tags).toEqual([]);
    expect(valid.metadata).toEqual({});
  });

  it('accepts an ACH business', () => {
    expect(validBankBeneficiary(ACH, NOW).bank).toMatchObject({ routingNumber: '021000021', accountNumber: '123456789012' });
  });

  const REQUIRED = ['accountId', 'nickname', 'bankName', 'method', 'currency', 'swiftCode', 'accountNumber', 'bankCountry'];
  it.each(REQUIRED.flatMap((field) => [
    [field, 'left out', undefined],
    [field, 'null', null],
    [field, 'blank', '  '],
  ] as const))('requires %s: refuses it %s', (field, _case, value) => {
    expectRefused({ ...SEPA, [field]: value }, field);
  });

  it('refuses an unknown field by name', () => {
    expectRefused({ ...SEPA, ibna: 'x' } as BankBeneficiaryInput, 'ibna');
  });

  it('refuses a non-string field', () => {
    expectRefused({ ...SEPA, bankName: 42 }, 'bankName');
  });

  describe('IBAN', () => {
    it('refuses a wrong check digit', () => expectRefused({ ...SEPA, iban: 'DE88370400440532013000' }, 'iban'));
    it('refuses a wrong country format', () => expectRefused({ ...SEPA, iban: 'XX89370400440532013000' }, 'iban'));
    it('refuses an IBAN of another country than bankCountry', () => expectRefused({ ...SEPA, iban: 'GB82WEST12345698765432' }, 'iban'));
    it('accepts an IBAN of its own bankCountry', () => {
      expect(validBankBeneficiary({ ...SEPA, bankCountry: 'FR', iban: 'FR1420041010050500013M02606' }, NOW).bank.iban).toBe('FR1420041010050500013M02606');
    });
  });

  describe('SWIFT/BIC', () => {
    it('accepts 8 characters', () => expect(validBankBeneficiary({ ...SEPA, swiftCode: 'COBADEFF' }, NOW).bank.swiftCode).toBe('COBADEFF'));
    it('accepts a code written with hyphens', () => expect(validBankBeneficiary({ ...SEPA, swiftCode: 'DEUT-DE-FF-500' }, NOW).bank.swiftCode).toBe('DEUTDEFF500'));
    it.each([
      ['too short', 'COBA1'],
      ['a digit in the country', 'DEUT1EFF'],
    ])('refuses a malformed code: %s', (_case, swiftCode) => expectRefused({ ...SEPA, swiftCode }, 'swiftCode'));
    it('refuses an unknown country in the code', () => expectRefused({ ...SEPA, swiftCode: 'COBAQQFF' }, 'swiftCode'));
    it('accepts a valid intermediary', () => {
      expect(validBankBeneficiary({ ...SEPA, method: 'WIRE', intermediarySwiftCode: 'CHASUS33' }, NOW).bank.intermediarySwiftCode).toBe('CHASUS33');
    });
    it('refuses a malformed intermediary', () => expectRefused({ ...SEPA, intermediarySwiftCode: 'CHAS' }, 'intermediarySwiftCode'));
  });

  describe('ABA routing number', () => {
    it('refuses a wrong check digit', () => expectRefused({ ...ACH, routingNumber: '021000022' }, 'routingNumber'));
    it('refuses a wrong length', () => expectRefused({ ...ACH, routingNumber: '02100002' }, 'routingNumber'));
    it('refuses one outside the US', () => expectRefused({ ...SEPA, method: 'WIRE', routingNumber: '021000021' }, 'routingNumber'));
  });

  describe('countries', () => {
    it.each([
      ['an unassigned code', 'XX'],
      ['alpha-3', 'DEU'],
    ])('refuses a bankCountry that is not ISO 3166-1 alpha-2: %s', (_case, bankCountry) => expectRefused({ ...SEPA, bankCountry }, 'bankCountry'));
    it('accepts a country in lower case, upper-cased', () => expect(validBankBeneficiary({ ...SEPA, country: 'fr' }, NOW).identity.country).toBe('FR'));
    it('refuses a country that is not ISO 3166-1 alpha-2', () => expectRefused({ ...SEPA, country: 'ZZ' }, 'country'));
  });

  describe('currency', () => {
    it('refuses a crypto asset', () => expectRefused({ ...SEPA, method: 'WIRE', currency: 'USDC' }, 'currency'));
    it.each(['JPY', 'GBP'])('refuses %s, a code outside the catalog', (currency) => expectRefused({ ...SEPA, method: 'WIRE', currency }, 'currency'));
  });

  describe('method', () => {
    it('refuses an undocumented method', () => expectRefused({ ...SEPA, method: 'CHEQUE' }, 'method'));
    it('SEPA needs EUR', () => expectRefused({ ...SEPA, currency: 'USD' }, 'currency'));
    it('SEPA needs an IBAN', () => expectRefused({ ...SEPA, iban: null }, 'iban'));
    it('ACH needs USD', () => expectRefused({ ...ACH, currency: 'EUR' }, 'currency'));
    it('ACH needs a routing number', () => expectRefused({ ...ACH, routingNumber: undefined }, 'routingNumber'));
    it('ACH needs a numeric account number', () => expectRefused({ ...ACH, accountNumber: 'ABC12345' }, 'accountNumber'));
    it('ACH accepts an account number of 17 digits', () => expect(validBankBeneficiary({ ...ACH, accountNumber: '12345678901234567' }, NOW).bank.accountNumber).toBe('12345678901234567'));
    it('ACH refuses an account number of 18 digits', () => expectRefused({ ...ACH, accountNumber: '123456789012345678' }, 'accountNumber'));
    it('FASTER_PAYMENTS pays GBP, not a catalog currency yet', () => expectRefused({ ...SEPA, method: 'FASTER_PAYMENTS' }, 'currency'));
    it.each([
      ['WIRE', 'USD', ACH],
      ['SWIFT', 'USD', SEPA],
      ['SWIFT', 'EUR', SEPA],
    ] as const)('%s takes any FIAT currency: %s', (method, currency, base) => {
      expect(validBankBeneficiary({ ...base, method, currency }, NOW).bank).toMatchObject({ method, currency });
    });
  });

  describe('dateOfBirth', () => {
    it.each([
      ['a real past date', '1990-02-28'],
      ['a leap day', '2000-02-29'],
      ['yesterday', '2026-03-09'],
    ])('accepts %s', (_case, dateOfBirth) => expect(validBankBeneficiary({ ...SEPA, dateOfBirth }, NOW).identity.dateOfBirth).toBe(dateOfBirth));
    it.each([
      ['a day that does not exist', '1990-02-30'],
      ['February 29 of a common year', '1990-02-29'],
      ['another format', '28/02/1990'],
      ['today', '2026-03-10'],
      ['the future', '2030-01-01'],
    ])('refuses %s', (_case, dateOfBirth) => expectRefused({ ...SEPA, dateOfBirth }, 'dateOfBirth'));
  });

  describe('email and phone', () => {
    it('accepts a well-formed email', () => expect(validBankBeneficiary({ ...SEPA, email: 'jane@example.com' }, NOW).identity.email).toBe('jane@example.com'));
    it('refuses a malformed email', () => expectRefused({ ...SEPA, email: 'jane@' }, 'email'));
    it.each([
      ['an international number', SEPA, '+1 213-373-4253'],
      ['a national number, read in the beneficiary country', { ...ACH, country: 'US' }, '(213) 373-4253'],
    ])('normalizes a phone number to E.164: %s', (_case, base, phoneNumber) => {
      expect(validBankBeneficiary({ ...base, phoneNumber }, NOW).identity.phoneNumber).toBe('+12133734253');
    });
    it.each([
      ['too short', '+1 213 37'],
      ['not a number', 'call me'],
    ])('refuses an impossible phone number: %s', (_case, phoneNumber) => expectRefused({ ...SEPA, phoneNumber }, 'phoneNumber'));
  });

  describe('entityType', () => {
    it('refuses an unknown entity type', () => expectRefused({ ...SEPA, entityType: 'TRUST' }, 'entityType'));
    it.each(['firstName', 'lastName'])('an individual needs %s', (field) => expectRefused({ ...SEPA, [field]: null }, field));
    it('a business needs a business name', () => expectRefused({ ...ACH, businessName: undefined }, 'businessName'));
    it('may be left out', () => expect(validBankBeneficiary({ ...SEPA, entityType: undefined, firstName: undefined }, NOW).identity.entityType).toBeNull());
  });

  describe('tags (spec 8)', () => {
    it('accepts 20 tags of 100 characters', () => {
      const tags = Array.from({ length: 20 }, (_, index) => `${index}`.padEnd(100, 'x'));
      expect(validBankBeneficiary({ ...SEPA, tags }, NOW).tags).toHaveLength(20);
    });
    it('refuses 21 tags', () => expectRefused({ ...SEPA, tags: Array.from({ length: 21 }, (_, index) => `t${index}`) }, 'tags'));
    it('refuses a tag of 101 characters, naming it', () => expectRefused({ ...SEPA, tags: ['ok', 'x'.repeat(101)] }, 'tags[1]'));
    it('refuses a non-string tag, naming it', () => expectRefused({ ...SEPA, tags: [1] }, 'tags[0]'));
    it('refuses a non-array', () => expectRefused({ ...SEPA, tags: 'vip' }, 'tags'));
  });

  describe('metadata (spec 8)', () => {
    it('accepts 50 string values', () => {
      const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`k${index}`, 'v']));
      expect(Object.keys(validBankBeneficiary({ ...SEPA, metadata }, NOW).metadata)).toHaveLength(50);
    });
    it('refuses 51 keys', () => expectRefused({ ...SEPA, metadata: Object.fromEntries(Array.from({ length: 51 }, (_, index) => [`k${index}`, 'v'])) }, 'metadata'));
    // {"blob":"…"} is 11 bytes around the value.
    it('accepts exactly 4 KB serialized', () => expect(validBankBeneficiary({ ...SEPA, metadata: { blob: 'x'.repeat(4096 - 11) } }, NOW).metadata.blob).toHaveLength(4085));
    it('refuses one byte more than 4 KB serialized', () => expectRefused({ ...SEPA, metadata: { blob: 'x'.repeat(4096 - 10) } }, 'metadata'));
    it('refuses a non-string value, naming its key', () => expectRefused({ ...SEPA, metadata: { count: 3 } }, 'metadata.count'));
    it('refuses an array', () => expectRefused({ ...SEPA, metadata: ['a'] }, 'metadata'));
  });
});

describe('bank view and destination', () => {
  it('shows only the last four digits of the account number', () => {
    const view = bankDetailsView(validBankBeneficiary(ACH, NOW).bank);
    expect(view.accountNumberLast4).toBe('9012');
    expect(JSON.stringify(view)).not.toContain('123456789012');
    expect(view).not.toHaveProperty('accountNumber');
  });

  it('is the IBAN when there is one', () => expect(bankDestination(validBankBeneficiary(SEPA, NOW).bank)).toBe('iban:DE89370400440532013000'));

  it('is the account at its routing number without an IBAN', () => expect(bankDestination(validBankBeneficiary(ACH, NOW).bank)).toBe('account:123456789012@021000021'));

  it('is the same for a BIC8 and its BIC11 with branch XXX', () => {
    const wire = (swiftCode: string) => bankDestination(validBankBeneficiary({ ...SEPA, method: 'WIRE', iban: null, swiftCode }, NOW).bank);
    expect(wire('COBADEFF')).toBe(wire('COBADEFFXXX'));
  });
});
