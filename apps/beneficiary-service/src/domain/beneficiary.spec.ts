import { DomainError } from '@pfs/contracts';
import { Beneficiary, type BeneficiaryChanges } from './beneficiary';

const T0 = new Date('2026-03-10T12:00:00Z');
const T1 = new Date('2026-03-11T12:00:00Z');
const EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const EVM_2 = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';

function bank(body: Record<string, unknown> = {}): Beneficiary {
  return Beneficiary.createBank({
    id: 'bene_1',
    organizationId: 'org_1',
    now: T0,
    body: {
      accountId: 'acct_1',
      nickname: 'Jane',
      bankName: 'Commerzbank',
      method: 'SEPA',
      currency: 'EUR',
      swiftCode: 'COBADEFFXXX',
      accountNumber: '0532013000',
      bankCountry: 'DE',
      iban: 'DE89370400440532013000',
      entityType: 'INDIVIDUAL',
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane@example.com',
      phoneNumber: '+12133734253',
      addressLine1: '1 Main St',
      addressLine2: 'Apt 2',
      city: 'Berlin',
      region: 'BE',
      zipCode: '10115',
      country: 'DE',
      legalName: 'Jane A. Doe',
      dateOfBirth: '1990-01-01',
      registrationNumber: 'R1',
      businessName: 'Jane Ltd',
      taxId: '12345678901',
      taxIdType: 'TIN',
      tags: ['vip'],
      metadata: { ref: '42' },
      ...body,
    },
  });
}

function crypto(address = EVM, id = 'bene_2'): Beneficiary {
  return Beneficiary.createCrypto({
    id,
    organizationId: 'org_1',
    environment: 'sandbox',
    now: T0,
    body: { accountId: 'acct_1', nickname: 'Cold wallet', chainName: 'ETHEREUM_SEPOLIA', address, entityType: 'BUSINESS', businessName: 'Acme' },
  });
}

function codeOf(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a domain error');
}

function expectInvalid(run: () => unknown, field: string): void {
  const { code, message } = codeOf(run);
  expect(code).toBe('invalid_request');
  expect(message.startsWith(`${field}:`)).toBe(true);
}

describe('Beneficiary', () => {
  it('is created ACTIVE with its details, keeping the full account number and tax id inside', () => {
    const beneficiary = bank();
    expect(beneficiary.props).toMatchObject({ type: 'BANK', status: 'ACTIVE', crypto: null, duplicateOf: null, createdAt: T0, updatedAt: T0 });
    expect(beneficiary.props.bank?.accountNumber).toBe('0532013000');
    expect(beneficiary.props.identity.taxId).toBe('12345678901');
    expect(beneficiary.accountNumberLast4).toBe('3000');
    expect(crypto().props).toMatchObject({ type: 'CRYPTO', bank: null, crypto: { chainName: 'ETHEREUM_SEPOLIA', chainDisplayName: 'Ethereum Sepolia', platform: 'EVM', address: EVM } });
    expect(crypto().accountNumberLast4).toBeNull();
  });

  it('is visible only to its organization', () => {
    expect(bank().isVisibleTo('org_1')).toBe(true);
    expect(bank().isVisibleTo('org_2')).toBe(false);
  });

  describe('PATCH', () => {
    it('leaves omitted fields unchanged and stamps updatedAt', () => {
      const patched = bank().patch({ nickname: 'Jane D.' }, 'sandbox', T1);
      expect(patched.props.nickname).toBe('Jane D.');
      expect(patched.props.identity).toEqual(bank().props.identity);
      expect(patched.props.bank).toEqual(bank().props.bank);
      expect(patched.props.updatedAt).toEqual(T1);
    });

    it.each(['email', 'phoneNumber', 'legalName', 'dateOfBirth', 'businessName', 'registrationNumber', 'addressLine1', 'addressLine2', 'city', 'region', 'zipCode', 'country', 'taxId', 'taxIdType'])(
      'null clears %s',
      (field) => {
        const patched = bank().patch({ [field]: null }, 'sandbox', T1);
        expect(patched.props.identity[field as keyof typeof patched.props.identity]).toBeNull();
      },
    );

    it('null clears tags and metadata', () => {
      const patched = bank().patch({ tags: null, metadata: null }, 'sandbox', T1);
      expect(patched.props.tags).toEqual([]);
      expect(patched.props.metadata).toEqual({});
    });

    it('null clears optional bank fields, re-validating the whole', () => {
      const wire = bank({ method: 'WIRE', bankCity: 'Frankfurt' });
      expect(wire.patch({ bankCity: null, iban: null }, 'sandbox', T1).props.bank).toMatchObject({ bankCity: null, iban: null });
      expectInvalid(() => bank().patch({ iban: null }, 'sandbox', T1), 'iban');
    });

    it.each(['accountId', 'nickname', 'entityType', 'bankName', 'method', 'currency', 'swiftCode', 'accountNumber', 'bankCountry'])('refuses null for %s', (field) => {
      expectInvalid(() => bank().patch({ [field]: null }, 'sandbox', T1), field);
    });

    it('keeps the names the entity type implies', () => {
      expectInvalid(() => bank().patch({ firstName: null }, 'sandbox', T1), 'firstName');
      expectInvalid(() => crypto().patch({ businessName: null }, 'sandbox', T1), 'businessName');
      expect(crypto().patch({ entityType: 'INDIVIDUAL', firstName: 'Ann', lastName: 'Lee' }, 'sandbox', T1).props.identity.entityType).toBe('INDIVIDUAL');
      expectInvalid(() => crypto().patch({ entityType: 'INDIVIDUAL' }, 'sandbox', T1), 'firstName');
    });

    it('validates changed values', () => {
      expectInvalid(() => bank().patch({ email: 'nope' }, 'sandbox', T1), 'email');
      expectInvalid(() => bank().patch({ tags: ['x'.repeat(101)] }, 'sandbox', T1), 'tags[0]');
      expectInvalid(() => bank().patch({ swiftCode: 'BAD' }, 'sandbox', T1), 'swiftCode');
      expect(bank().patch({ accountId: 'acct_2' }, 'sandbox', T1).props.accountId).toBe('acct_2');
    });

    it('refuses unknown fields', () => expectInvalid(() => bank().patch({ chainName: 'TRON_NILE' } as BeneficiaryChanges, 'sandbox', T1), 'chainName'));

    it('changes the wallet address of a crypto beneficiary only, re-validated against its chain', () => {
      expect(crypto().patch({ address: EVM_2.toLowerCase() }, 'sandbox', T1).props.crypto?.address).toBe(EVM_2);
      expectInvalid(() => crypto().patch({ address: EVM.replace('aA', 'Aa') }, 'sandbox', T1), 'address');
      expectInvalid(() => crypto().patch({ address: null }, 'sandbox', T1), 'address');
      expectInvalid(() => bank().patch({ address: EVM }, 'sandbox', T1), 'address');
      expectInvalid(() => crypto().patch({ iban: 'DE89370400440532013000' }, 'sandbox', T1), 'iban');
    });

    it('refuses an archived beneficiary (already_archived) and a blocked one (blocked)', () => {
      expect(codeOf(() => bank().archive(T1).patch({ nickname: 'x' }, 'sandbox', T1)).code).toBe('beneficiary_already_archived');
      expect(codeOf(() => bank().block(T1).patch({ nickname: 'x' }, 'sandbox', T1)).code).toBe('beneficiary_blocked');
    });
  });

  describe('lifecycle', () => {
    it('archives and unarchives', () => {
      const archived = bank().archive(T1);
      expect(archived.status).toBe('ARCHIVED');
      expect(archived.props.updatedAt).toEqual(T1);
      expect(archived.isPayable()).toBe(false);
      expect(archived.unarchive(T1).status).toBe('ACTIVE');
    });

    it('answers the documented codes', () => {
      expect(codeOf(() => bank().archive(T1).archive(T1)).code).toBe('beneficiary_already_archived');
      expect(codeOf(() => bank().unarchive(T1)).code).toBe('beneficiary_not_archived');
      expect(codeOf(() => bank().block(T1).archive(T1)).code).toBe('beneficiary_blocked');
      expect(codeOf(() => bank().block(T1).block(T1)).code).toBe('beneficiary_blocked');
      expect(codeOf(() => bank().archive(T1).block(T1)).code).toBe('beneficiary_already_archived');
      expect(codeOf(() => bank().archive(T1).unblock(T1)).code).toBe('beneficiary_already_archived');
      expect(codeOf(() => bank().unblock(T1)).code).toBe('invalid_request');
    });

    it('blocks and unblocks; only ACTIVE is payable', () => {
      const blocked = bank().block(T1);
      expect(blocked.status).toBe('BLOCKED');
      expect(blocked.isPayable()).toBe(false);
      expect(blocked.unblock(T1).status).toBe('ACTIVE');
      expect(bank().isPayable()).toBe(true);
      expect(Beneficiary.restore({ ...bank().props, status: 'INACTIVE' }).archive(T1).status).toBe('ARCHIVED');
    });
  });

  describe('destinationKey', () => {
    it('is the same for the same account, type and destination', () => {
      expect(bank({ nickname: 'other' }).destinationKey()).toBe(bank().destinationKey());
      expect(crypto(EVM.toLowerCase()).destinationKey()).toBe(crypto().destinationKey());
    });

    it('differs by account, destination and type', () => {
      expect(bank({ accountId: 'acct_2' }).destinationKey()).not.toBe(bank().destinationKey());
      expect(crypto(EVM_2).destinationKey()).not.toBe(crypto().destinationKey());
      expect(bank().destinationKey()).not.toBe(crypto().destinationKey());
    });

    it('flags a duplicate with the earlier id', () => {
      expect(crypto(EVM, 'bene_3').markDuplicateOf('bene_2').props.duplicateOf).toBe('bene_2');
      expect(crypto().markDuplicateOf('bene_2').props.duplicateOf).toBeNull();
    });
  });
});

describe('Beneficiary: SERVICENET', () => {
  const receiver = { organizationId: 'org_2', handle: 'globex', organizationName: 'Globex Ltd' };
  const servicenet = (body: Record<string, unknown> = {}) =>
    Beneficiary.createServicenet({ id: 'bene_9', organizationId: 'org_1', now: T0, body: { accountId: 'acct_1', nickname: 'Globex', handle: 'globex', ...body }, receiver });

  it('is created ACTIVE with the receiving organization and neither bank nor crypto details', () => {
    expect(servicenet().props).toMatchObject({ type: 'SERVICENET', status: 'ACTIVE', bank: null, crypto: null, servicenet: receiver });
  });

  it('refuses a missing nickname and a field of another type, naming it', () => {
    expect(() => servicenet({ nickname: undefined })).toThrow(expect.objectContaining({ code: 'invalid_request', message: 'nickname: is required' }));
    expect(() => servicenet({ chainName: 'ETHEREUM_SEPOLIA' })).toThrow(expect.objectContaining({ code: 'invalid_request', message: expect.stringMatching(/^chainName: /) }));
  });

  it('is a duplicate of another payee of the same account to the same organization; PATCH keeps the receiver and refuses bank fields and an address', () => {
    expect(servicenet().destinationKey()).toBe(servicenet({ nickname: 'Other name' }).destinationKey());
    const renamed = servicenet().patch({ nickname: 'Globex EU' }, 'sandbox', T1);
    expect(renamed.props).toMatchObject({ nickname: 'Globex EU', servicenet: receiver, updatedAt: T1 });
    expect(() => servicenet().patch({ iban: 'DE89370400440532013000' }, 'sandbox', T1)).toThrow(DomainError);
    expect(() => servicenet().patch({ address: EVM_2 }, 'sandbox', T1)).toThrow(expect.objectContaining({ message: expect.stringMatching(/^address: /) }));
  });
});
