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

  it.each(['accountId', 'nickname', 'bankName', 'method', 'currency', 'swiftCode', 'accountNumber', 'bankCountry'])('requires %s', (field) => {
    expectRefused({ ...SEPA, [field]: undefined }, field);
    expectRefused({ ...SEPA, [field]: '  ' }, field);
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
  });

  describe('SWIFT/BIC', () => {
    it('accepts 8 characters', () => expect(validBankBeneficiary({ ...SEPA, swiftCode: 'COBADEFF' }, NOW).bank.swiftCode).toBe('COBADEFF'));
    it('refuses a malformed code', () => expectRefused({ ...SEPA, swiftCode: 'COBA1' }, 'swiftCode'));
    it('refuses an unknown country in the code', () => expectRefused({ ...SEPA, swiftCode: 'COBAQQFF' }, 'swiftCode'));
    it('checks the intermediary too', () => {
      expect(validBankBeneficiary({ ...SEPA, method: 'WIRE', intermediarySwiftCode: 'CHASUS33' }, NOW).bank.intermediarySwiftCode).toBe('CHASUS33');
      expectRefused({ ...SEPA, intermediarySwiftCode: 'CHAS' }, 'intermediarySwiftCode');
    });
  });

  describe('ABA routing number', () => {
    it('refuses a wrong check digit', () => expectRefused({ ...ACH, routingNumber: '021000022' }, 'routingNumber'));
    it('refuses a wrong length', () => expectRefused({ ...ACH, routingNumber: '02100002' }, 'routingNumber'));
    it('refuses one outside the US', () => expectRefused({ ...SEPA, method: 'WIRE', routingNumber: '021000021' }, 'routingNumber'));
  });

  describe('countries', () => {
    it('refuses a bankCountry that is not ISO 3166-1 alpha-2', () => {
      expectRefused({ ...SEPA, bankCountry: 'XX' }, 'bankCountry');
      expectRefused({ ...SEPA, bankCountry: 'DEU' }, 'bankCountry');
    });
    it('accepts and refuses country', () => {
      expect(validBankBeneficiary({ ...SEPA, country: 'fr' }, NOW).identity.country).toBe('FR');
      expectRefused({ ...SEPA, country: 'ZZ' }, 'country');
    });
  });

  describe('currency', () => {
    it('refuses a crypto asset', () => expectRefused({ ...SEPA, method: 'WIRE', currency: 'USDC' }, 'currency'));
    it('refuses a code outside the catalog', () => expectRefused({ ...SEPA, method: 'WIRE', currency: 'JPY' }, 'currency'));
  });

  describe('method', () => {
    it('refuses an undocumented method', () => expectRefused({ ...SEPA, method: 'CHEQUE' }, 'method'));
    it('SEPA needs EUR', () => expectRefused({ ...SEPA, currency: 'USD' }, 'currency'));
    it('SEPA needs an IBAN', () => expectRefused({ ...SEPA, iban: null }, 'iban'));
    it('ACH needs USD', () => expectRefused({ ...ACH, currency: 'EUR' }, 'currency'));
    it('ACH needs a routing number', () => expectRefused({ ...ACH, routingNumber: undefined }, 'routingNumber'));
    it('ACH needs a numeric account number', () => expectRefused({ ...ACH, accountNumber: 'ABC12345' }, 'accountNumber'));
    it('FASTER_PAYMENTS pays GBP, not a catalog currency yet', () => expectRefused({ ...SEPA, method: 'FASTER_PAYMENTS' }, 'currency'));
    it('WIRE and SWIFT take any FIAT currency', () => {
      expect(validBankBeneficiary({ ...ACH, method: 'WIRE' }, NOW).bank.method).toBe('WIRE');
      expect(validBankBeneficiary({ ...SEPA, method: 'SWIFT', currency: 'USD' }, NOW).bank.method).toBe('SWIFT');
    });
  });

  describe('dateOfBirth', () => {
    it('accepts a real past date', () => expect(validBankBeneficiary({ ...SEPA, dateOfBirth: '1990-02-28' }, NOW).identity.dateOfBirth).toBe('1990-02-28'));
    it('refuses a day that does not exist', () => expectRefused({ ...SEPA, dateOfBirth: '1990-02-30' }, 'dateOfBirth'));
    it('refuses another format', () => expectRefused({ ...SEPA, dateOfBirth: '28/02/1990' }, 'dateOfBirth'));
    it('refuses today and the future', () => {
      expectRefused({ ...SEPA, dateOfBirth: '2026-03-10' }, 'dateOfBirth');
      expectRefused({ ...SEPA, dateOfBirth: '2030-01-01' }, 'dateOfBirth');
    });
  });

  describe('email and phone', () => {
    it('accepts a well-formed email', () => expect(validBankBeneficiary({ ...SEPA, email: 'jane@example.com' }, NOW).identity.email).toBe('jane@example.com'));
    it('refuses a malformed email', () => expectRefused({ ...SEPA, email: 'jane@' }, 'email'));
    it('normalizes a phone number to E.164', () => {
      expect(validBankBeneficiary({ ...SEPA, phoneNumber: '+1 213-373-4253' }, NOW).identity.phoneNumber).toBe('+12133734253');
      expect(validBankBeneficiary({ ...ACH, country: 'US', phoneNumber: '(213) 373-4253' }, NOW).identity.phoneNumber).toBe('+12133734253');
    });
    it('refuses an impossible phone number', () => {
      expectRefused({ ...SEPA, phoneNumber: '+1 213 37' }, 'phoneNumber');
      expectRefused({ ...SEPA, phoneNumber: 'call me' }, 'phoneNumber');
    });
  });

  describe('entityType', () => {
    it('refuses an unknown entity type', () => expectRefused({ ...SEPA, entityType: 'TRUST' }, 'entityType'));
    it('an individual needs first and last name', () => {
      expectRefused({ ...SEPA, firstName: undefined }, 'firstName');
      expectRefused({ ...SEPA, lastName: null }, 'lastName');
    });
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
    it('refuses a non-string tag and a non-array', () => {
      expectRefused({ ...SEPA, tags: [1] }, 'tags[0]');
      expectRefused({ ...SEPA, tags: 'vip' }, 'tags');
    });
  });

  describe('metadata (spec 8)', () => {
    it('accepts 50 string values', () => {
      const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`k${index}`, 'v']));
      expect(Object.keys(validBankBeneficiary({ ...SEPA, metadata }, NOW).metadata)).toHaveLength(50);
    });
    it('refuses 51 keys', () => expectRefused({ ...SEPA, metadata: Object.fromEntries(Array.from({ length: 51 }, (_, index) => [`k${index}`, 'v'])) }, 'metadata'));
    it('refuses more than 4 KB serialized', () => expectRefused({ ...SEPA, metadata: { note: 'x'.repeat(4090) } }, 'metadata'));
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

  it('is the IBAN when there is one, else the account at its bank (BIC8 = BIC11 XXX)', () => {
    expect(bankDestination(validBankBeneficiary(SEPA, NOW).bank)).toBe('iban:DE89370400440532013000');
    expect(bankDestination(validBankBeneficiary(ACH, NOW).bank)).toBe('account:123456789012@021000021');
    const wire = (swiftCode: string) => bankDestination(validBankBeneficiary({ ...SEPA, method: 'WIRE', iban: null, swiftCode }, NOW).bank);
    expect(wire('COBADEFF')).toBe(wire('COBADEFFXXX'));
  });
});
