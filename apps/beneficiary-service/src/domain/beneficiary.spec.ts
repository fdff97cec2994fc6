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

  it('is visible to its organization', () => expect(bank().isVisibleTo('org_1')).toBe(true));

  it('is not visible to another organization', () => expect(bank().isVisibleTo('org_2')).toBe(false));

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

    it.each([
      ['tags', []],
      ['metadata', {}],
    ] as const)('null clears %s to its empty value', (field, empty) => {
      expect(bank().patch({ [field]: null }, 'sandbox', T1).props[field]).toEqual(empty);
    });

    it.each(['bankCity', 'iban'])('null clears the optional bank field %s of a WIRE beneficiary', (field) => {
      const wire = bank({ method: 'WIRE', bankCity: 'Frankfurt' });
      expect(wire.patch({ [field]: null }, 'sandbox', T1).props.bank).toMatchObject({ [field]: null });
    });

    it('re-validates the whole after a null: a SEPA beneficiary keeps its IBAN', () => expectInvalid(() => bank().patch({ iban: null }, 'sandbox', T1), 'iban'));

    it.each(['accountId', 'nickname', 'entityType', 'bankName', 'method', 'currency', 'swiftCode', 'accountNumber', 'bankCountry'])('refuses null for %s', (field) => {
      expectInvalid(() => bank().patch({ [field]: null }, 'sandbox', T1), field);
    });

    describe('keeps the names the entity type implies', () => {
      it.each([
        ['an individual its firstName', bank, { firstName: null }, 'firstName'],
        ['an individual its lastName', bank, { lastName: null }, 'lastName'],
        ['a business its businessName', crypto, { businessName: null }, 'businessName'],
        ['a business turned individual without names', crypto, { entityType: 'INDIVIDUAL' }, 'firstName'],
      ] as const)('refuses to leave %s', (_case, make, changes, field) => {
        expectInvalid(() => make().patch(changes, 'sandbox', T1), field);
      });

      it('turns a business into an individual given both names', () => {
        expect(crypto().patch({ entityType: 'INDIVIDUAL', firstName: 'Ann', lastName: 'Lee' }, 'sandbox', T1).props.identity.entityType).toBe('INDIVIDUAL');
      });
    });

    it.each([
      ['email', { email: 'nope' }, 'email'],
      ['tag, naming it', { tags: ['x'.repeat(101)] }, 'tags[0]'],
      ['swiftCode', { swiftCode: 'BAD' }, 'swiftCode'],
      ['phoneNumber', { phoneNumber: 'call me' }, 'phoneNumber'],
      ['dateOfBirth', { dateOfBirth: '1990-02-30' }, 'dateOfBirth'],
      ['country', { country: 'ZZ' }, 'country'],
      ['iban', { iban: 'DE88370400440532013000' }, 'iban'],
    ] as const)('validates a changed %s', (_case, changes, field) => {
      expectInvalid(() => bank().patch(changes, 'sandbox', T1), field);
    });

    it('changes accountId', () => expect(bank().patch({ accountId: 'acct_2' }, 'sandbox', T1).props.accountId).toBe('acct_2'));

    it('refuses unknown fields', () => expectInvalid(() => bank().patch({ chainName: 'TRON_NILE' } as BeneficiaryChanges, 'sandbox', T1), 'chainName'));

    it('changes the wallet address of a crypto beneficiary, stored checksummed', () => {
      expect(crypto().patch({ address: EVM_2.toLowerCase() }, 'sandbox', T1).props.crypto?.address).toBe(EVM_2);
    });

    it.each([
      ['an address of a crypto beneficiary with a wrong checksum', crypto, { address: EVM.replace('aA', 'Aa') }, 'address'],
      ['null for the address of a crypto beneficiary', crypto, { address: null }, 'address'],
      ['an address for a bank beneficiary', bank, { address: EVM }, 'address'],
      ['a bank field for a crypto beneficiary', crypto, { iban: 'DE89370400440532013000' }, 'iban'],
    ] as const)('refuses %s', (_case, make, changes, field) => {
      expectInvalid(() => make().patch(changes, 'sandbox', T1), field);
    });

    it.each([
      ['an archived beneficiary', 'beneficiary_already_archived', (b: Beneficiary) => b.archive(T1)],
      ['a blocked beneficiary', 'beneficiary_blocked', (b: Beneficiary) => b.block(T1)],
    ] as const)('refuses %s (%s)', (_case, code, into) => {
      expect(codeOf(() => into(bank()).patch({ nickname: 'x' }, 'sandbox', T1)).code).toBe(code);
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

    const archived = (): Beneficiary => bank().archive(T1);
    const blocked = (): Beneficiary => bank().block(T1);
    it.each([
      ['archiving an archived beneficiary', 'beneficiary_already_archived', () => archived().archive(T1)],
      ['unarchiving an active beneficiary', 'beneficiary_not_archived', () => bank().unarchive(T1)],
      ['archiving a blocked beneficiary', 'beneficiary_blocked', () => blocked().archive(T1)],
      ['blocking a blocked beneficiary', 'beneficiary_blocked', () => blocked().block(T1)],
      ['blocking an archived beneficiary', 'beneficiary_already_archived', () => archived().block(T1)],
      ['unblocking an archived beneficiary', 'beneficiary_already_archived', () => archived().unblock(T1)],
      ['unblocking an active beneficiary', 'invalid_request', () => bank().unblock(T1)],
    ] as const)('refuses %s (%s)', (_case, code, run) => {
      expect(codeOf(run).code).toBe(code);
    });

    it('blocks and unblocks; a blocked beneficiary is not payable', () => {
      const blocked = bank().block(T1);
      expect(blocked.status).toBe('BLOCKED');
      expect(blocked.isPayable()).toBe(false);
      expect(blocked.unblock(T1).status).toBe('ACTIVE');
    });

    it('an ACTIVE beneficiary is payable', () => expect(bank().isPayable()).toBe(true));

    it('an INACTIVE beneficiary can be archived', () => {
      expect(Beneficiary.restore({ ...bank().props, status: 'INACTIVE' }).archive(T1).status).toBe('ARCHIVED');
    });
  });

  describe('destinationKey', () => {
    it('is the same for the same account, type and destination', () => {
      expect(bank({ nickname: 'other' }).destinationKey()).toBe(bank().destinationKey());
      expect(crypto(EVM.toLowerCase()).destinationKey()).toBe(crypto().destinationKey());
    });

    it.each([
      ['account', () => bank({ accountId: 'acct_2' }), bank],
      ['destination', () => crypto(EVM_2), crypto],
      ['type', bank, crypto],
    ] as const)('differs by %s', (_case, one, other) => {
      expect(one().destinationKey()).not.toBe(other().destinationKey());
    });

    it('flags a duplicate with the earlier id', () => expect(crypto(EVM, 'bene_3').markDuplicateOf('bene_2').props.duplicateOf).toBe('bene_2'));

    it('is never a duplicate of itself', () => expect(crypto().markDuplicateOf('bene_2').props.duplicateOf).toBeNull());
  });
});

describe('Beneficiary: SERVICENET', () => {
  const receiver = { organizationId: 'org_2', handle: 'globex', organizationName: 'Globex Ltd' };
  const servicenet = (body: Record<string, unknown> = {}) =>
    Beneficiary.createServicenet({ id: 'bene_9', organizationId: 'org_1', now: T0, body: { accountId: 'acct_1', nickname: 'Globex', handle: 'globex', ...body }, receiver });

  it('is created ACTIVE with the receiving organization and neither bank nor crypto details', () => {
    expect(servicenet().props).toMatchObject({ type: 'SERVICENET', status: 'ACTIVE', bank: null, crypto: null, servicenet: receiver });
  });

  it('refuses a missing nickname', () => {
    expect(() => servicenet({ nickname: undefined })).toThrow(expect.objectContaining({ code: 'invalid_request', message: 'nickname: is required' }));
  });

  it('refuses a field of another type, naming it', () => {
    expect(() => servicenet({ chainName: 'ETHEREUM_SEPOLIA' })).toThrow(expect.objectContaining({ code: 'invalid_request', message: expect.stringMatching(/^chainName: /) }));
  });

  it('is a duplicate of another payee of the same account to the same organization', () => {
    expect(servicenet().destinationKey()).toBe(servicenet({ nickname: 'Other name' }).destinationKey());
  });

  it('PATCH keeps the receiver', () => {
    const renamed = servicenet().patch({ nickname: 'Globex EU' }, 'sandbox', T1);
    expect(renamed.props).toMatchObject({ nickname: 'Globex EU', servicenet: receiver, updatedAt: T1 });
  });

  it('PATCH refuses a bank field', () => {
    expect(() => servicenet().patch({ iban: 'DE89370400440532013000' }, 'sandbox', T1)).toThrow(DomainError);
  });

  it('PATCH refuses an address, naming it', () => {
    expect(() => servicenet().patch({ address: EVM_2 }, 'sandbox', T1)).toThrow(expect.objectContaining({ message: expect.stringMatching(/^address: /) }));
  });
});
