import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsDefined, IsIn, IsOptional, IsString, Matches, MaxLength, ValidateBy } from 'class-validator';
import { ASSET_CATALOG, BANK_METHODS, ENTITY_TYPES, SANDBOX_CHAINS, type BankMethod, type EntityType } from '@pfs/contracts';
import { ACCOUNT_ID_PATTERN, ACCOUNT_RULE } from './beneficiary.dto';

/**
 * The request bodies of the beneficiary routes (spec 4.4, 4.5; wire names of api-decisions §7).
 * The gateway checks the shape (strings, enums, the account id, spec 8's limits on tags and
 * metadata); the beneficiary service checks every rule again and owns the rest (IBAN, BIC, ABA,
 * country codes, the address on its chain, entity type and names, lengths), each refusal
 * 400 `invalid_request` starting with the field's name. Every field of PATCH lets `null`
 * through: the service clears it, or refuses that for a field that cannot be empty.
 */

/** A servicenet handle: 3–32 of `[a-z0-9_-]`, compared without case (so upper case is accepted here). */
export const SERVICENET_HANDLE_PATTERN = '^[A-Za-z0-9_-]{3,32}$';
export const SERVICENET_HANDLE_RULE = 'must be 3 to 32 characters of letters, digits, _ and - (case-insensitive)';

/** Spec 8. */
export const MAX_TAGS = 20;
export const MAX_TAG_LENGTH = 100;
export const MAX_METADATA_KEYS = 50;
export const MAX_METADATA_BYTES = 4096;

const FIAT_CODES = ASSET_CATALOG.filter((asset) => asset.type === 'FIAT').map((asset) => asset.code);
const PRODUCTION_CHAINS = ['ETHEREUM', 'ARBITRUM', 'BASE', 'BSC', 'SOLANA', 'TRON'];
const TEXT_NOTE = 'Trimmed; a blank string is refused.';

type Mode = 'create' | 'optional' | 'patch';

interface FieldDoc {
  description: string;
  maxLength?: number;
  example?: string;
  /** Checked here as an exact value of the list. */
  enum?: readonly string[];
  /** Checked here. */
  pattern?: { source: string; rule: string };
  /** Null in PATCH is refused by the service (`<field>: cannot be cleared`). */
  notClearable?: true;
}

/** Every text field with its documentation: the one place a field is described. */
const FIELDS = {
  accountId: {
    description: 'The account the beneficiary belongs to: one of the organization’s own (another organization’s, or an unknown one, is 404 `account_not_found`).',
    example: 'acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c',
    pattern: { source: ACCOUNT_ID_PATTERN, rule: ACCOUNT_RULE },
    notClearable: true,
  },
  nickname: { description: `Display name. ${TEXT_NOTE}`, maxLength: 255, example: 'Supplier GmbH (EUR)', notClearable: true },
  bankName: { description: 'Name of the bank.', maxLength: 255, example: 'Deutsche Bank', notClearable: true },
  method: {
    description:
      'Transfer method, and what it needs: `WIRE` and `SWIFT` pay any FIAT currency of the catalog by SWIFT/BIC; `SEPA` needs an `iban` and `currency` EUR; ' +
      '`ACH` needs a `routingNumber`, `currency` USD and an account number of 4 to 17 digits; `FASTER_PAYMENTS` needs `currency` GBP and `bankCountry` GB, and GBP is not ' +
      'in the asset catalog yet, so it cannot pass today (400 `invalid_request` naming `currency`).',
    enum: BANK_METHODS,
    example: 'SEPA',
    notClearable: true,
  },
  currency: {
    description: `Payout currency: a FIAT asset code of the catalog (${FIAT_CODES.join(', ')}; see GET /v1/assets), case-insensitive, answered upper-cased.`,
    maxLength: 10,
    example: 'EUR',
    notClearable: true,
  },
  swiftCode: {
    description: 'SWIFT/BIC code, 8 or 11 characters (format checked); spaces and dashes are ignored, answered upper-cased.',
    maxLength: 20,
    example: 'DEUTDEFF',
    notClearable: true,
  },
  accountNumber: {
    description:
      'Bank account number: 4 to 34 letters or digits once spaces and dashes are removed (ACH: 4 to 17 digits). Write-only: stored encrypted and never ' +
      'returned; responses carry only `bank.accountNumberLast4`.',
    maxLength: 40,
    example: '0532013000',
    notClearable: true,
  },
  bankCountry: { description: 'Country of the bank, ISO 3166-1 alpha-2, case-insensitive, answered upper-cased.', maxLength: 2, example: 'DE', notClearable: true },
  iban: {
    description:
      'IBAN, checked for its country’s format and its check digits; its country must be `bankCountry`. Required for SEPA. Spaces and dashes are ignored, answered upper-cased.',
    maxLength: 42,
    example: 'DE89 3704 0044 0532 0130 00',
  },
  routingNumber: {
    description: 'ABA routing number (US domestic): 9 digits with a valid check digit; `bankCountry` must be US. Required for ACH.',
    maxLength: 11,
    example: '021000021',
  },
  bankAddressLine1: { description: `Bank address line 1. ${TEXT_NOTE}`, maxLength: 255 },
  bankCity: { description: 'Bank city.', maxLength: 255 },
  bankRegion: { description: 'Bank region or state.', maxLength: 255 },
  bankZipCode: { description: 'Bank ZIP or postal code.', maxLength: 20 },
  intermediaryBankName: { description: 'Intermediary bank name.', maxLength: 255 },
  intermediarySwiftCode: { description: 'Intermediary SWIFT/BIC code (format checked).', maxLength: 20 },
  intermediaryBankAddress: { description: 'Intermediary bank address.', maxLength: 255 },
  chainName: {
    description:
      `Chain of the address: in the sandbox one of ${SANDBOX_CHAINS.join(', ')}; in production their mainnets ` +
      `(${PRODUCTION_CHAINS.join(', ')}).`,
    maxLength: 64,
    example: 'ETHEREUM_SEPOLIA',
    notClearable: true,
  },
  address: {
    description:
      'Wallet address, checked against the chain: EVM chains `0x` + 40 hex, with the EIP-55 checksum enforced when the letters are mixed case (answered ' +
      'checksummed); Solana base58 decoding to 32 bytes; Tron base58check with the 0x41 prefix (`T…`).',
    maxLength: 64,
    example: '0x52908400098527886E0F7030069857D2E4169EE7',
    notClearable: true,
  },
  asset: {
    description: 'The crypto asset the beneficiary is paid in, optional: USDC and USDT on every chain, ETH on the EVM chains; case-insensitive.',
    maxLength: 10,
    example: 'USDC',
  },
  handle: {
    description:
      'The servicenet handle of the receiving organization (`PUT /v1/servicenet/handle`): 3 to 32 of letters, digits, `_` and `-`, case-insensitive ' +
      '(`Acme` finds `acme`). Unknown, or held by an organization that has servicenet disabled: 404 `servicenet_handle_not_found`; your own: 400 ' +
      '`invalid_request`.',
    maxLength: 32,
    example: 'acme-payments',
    pattern: { source: SERVICENET_HANDLE_PATTERN, rule: SERVICENET_HANDLE_RULE },
    notClearable: true,
  },
  entityType: {
    description: 'Optional, but when given it implies the names: `INDIVIDUAL` needs `firstName` and `lastName`, `BUSINESS` needs `businessName`.',
    enum: ENTITY_TYPES,
    example: 'BUSINESS',
    notClearable: true,
  },
  email: { description: 'Email address (well-formed).', maxLength: 254, example: 'payables@supplier.example' },
  phoneNumber: {
    description: 'Phone number, preferably international (`+14155552671`); a national number is read in `country`. Answered normalized to E.164.',
    maxLength: 32,
    example: '+49 69 123456',
  },
  firstName: { description: 'First name (individuals).', maxLength: 255, example: 'Ada' },
  lastName: { description: 'Last name (individuals).', maxLength: 255, example: 'Lovelace' },
  legalName: { description: 'Full legal name.', maxLength: 255 },
  dateOfBirth: { description: 'Date of birth, `YYYY-MM-DD`: a day that exists, before today (UTC) and not before 1900.', maxLength: 10, example: '1990-12-10' },
  businessName: { description: 'Business name (businesses).', maxLength: 255, example: 'Supplier GmbH' },
  registrationNumber: { description: 'Registration or incorporation number.', maxLength: 64, example: 'HRB 12345' },
  addressLine1: { description: 'Address line 1.', maxLength: 255 },
  addressLine2: { description: 'Address line 2.', maxLength: 255 },
  city: { description: 'City.', maxLength: 255 },
  region: { description: 'Region, state or province.', maxLength: 255 },
  zipCode: { description: 'ZIP or postal code.', maxLength: 20 },
  country: { description: 'Country, ISO 3166-1 alpha-2, case-insensitive, answered upper-cased.', maxLength: 2, example: 'DE' },
  taxId: { description: 'Tax id. Write-only: stored encrypted and never returned (responses carry only `taxIdType`).', maxLength: 64 },
  taxIdType: { description: 'Kind of tax id, a code such as `SSN` or `TIN` (letters, digits, `_`), answered upper-cased.', maxLength: 20, example: 'TIN' },
} as const satisfies Record<string, FieldDoc>;

type FieldName = keyof typeof FIELDS;

function describeField(doc: FieldDoc, mode: Mode): string {
  if (mode === 'create') return doc.description;
  if (mode === 'optional') return `${doc.description} Omitted or null: none.`;
  return `${doc.description} ${doc.notClearable ? 'Cannot be cleared: null is 400 `invalid_request`.' : 'null clears it.'}`;
}

/**
 * A text field: its OpenAPI property and its rule. `create` is required; `optional` (create)
 * and `patch` let undefined and null through (class-validator's IsOptional skips both).
 */
function Text(name: FieldName, mode: Mode): PropertyDecorator {
  const doc: FieldDoc = FIELDS[name];
  const schema = {
    type: 'string' as const,
    description: describeField(doc, mode),
    ...(doc.maxLength !== undefined ? { maxLength: doc.maxLength } : {}),
    ...(doc.example !== undefined ? { example: doc.example } : {}),
    ...(doc.enum ? { enum: [...doc.enum] } : {}),
    ...(doc.pattern ? { pattern: doc.pattern.source } : {}),
  };
  const rule = doc.enum
    ? IsIn(doc.enum, { message: `must be one of ${doc.enum.join(', ')}` })
    : doc.pattern
      ? Matches(new RegExp(doc.pattern.source), { message: doc.pattern.rule })
      : IsString({ message: 'must be a string' });
  return mode === 'create'
    ? applyDecorators(ApiProperty(schema), IsDefined({ message: 'is required' }), rule)
    : applyDecorators(ApiPropertyOptional({ ...schema, nullable: true }), IsOptional(), rule);
}

const TAGS_RULE = `must be an array of at most ${MAX_TAGS} strings`;
const TAG_RULE = `each tag must be a string of at most ${MAX_TAG_LENGTH} characters`;

/** Spec 8: at most 20 tags, each up to 100 characters. */
function Tags(mode: Exclude<Mode, 'create'>): PropertyDecorator {
  const base = `Free-form tags: at most ${MAX_TAGS}, each a non-blank string of at most ${MAX_TAG_LENGTH} characters.`;
  return applyDecorators(
    ApiPropertyOptional({
      type: 'array',
      items: { type: 'string', maxLength: MAX_TAG_LENGTH },
      maxItems: MAX_TAGS,
      nullable: true,
      example: ['supplier', 'eu'],
      description: mode === 'patch' ? `${base} Replaces the tags; null or [] removes them all.` : `${base} Omitted or null: none.`,
    }),
    IsOptional(),
    IsArray({ message: TAGS_RULE }),
    ArrayMaxSize(MAX_TAGS, { message: TAGS_RULE }),
    IsString({ each: true, message: TAG_RULE }),
    MaxLength(MAX_TAG_LENGTH, { each: true, message: TAG_RULE }),
  );
}

/** Why a metadata value breaks spec 8 (a flat object of strings, 50 keys, 4 KB as JSON), or null. */
export function metadataProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object of string values';
  const entries = Object.entries(value);
  if (entries.length > MAX_METADATA_KEYS) return `at most ${MAX_METADATA_KEYS} keys`;
  for (const [key, entry] of entries) {
    if (!key.trim()) return 'keys must not be blank';
    if (typeof entry !== 'string') return `values must be strings (${JSON.stringify(key)} is not)`;
  }
  if (Buffer.byteLength(JSON.stringify(value), 'utf8') > MAX_METADATA_BYTES) return `must be at most ${MAX_METADATA_BYTES} bytes serialized as JSON`;
  return null;
}

function Metadata(mode: Exclude<Mode, 'create'>): PropertyDecorator {
  const base = `Arbitrary metadata: an object of string values, at most ${MAX_METADATA_KEYS} keys and ${MAX_METADATA_BYTES} bytes serialized as JSON (UTF-8).`;
  return applyDecorators(
    ApiPropertyOptional({
      type: 'object',
      additionalProperties: { type: 'string' },
      maxProperties: MAX_METADATA_KEYS,
      nullable: true,
      example: { erpId: 'V-1042' },
      description: mode === 'patch' ? `${base} Replaces the metadata; null or {} removes it all.` : `${base} Omitted or null: none.`,
    }),
    IsOptional(),
    ValidateBy({
      name: 'isBeneficiaryMetadata',
      validator: {
        validate: (value: unknown) => metadataProblem(value) === null,
        defaultMessage: (args) => metadataProblem(args?.value) ?? 'must be an object of string values',
      },
    }),
  );
}

/** The identity and contact fields both creates take (api-decisions §7), with the same rules. */
abstract class BeneficiaryIdentityBody {
  @Text('entityType', 'optional') entityType?: EntityType | null;
  @Text('email', 'optional') email?: string | null;
  @Text('phoneNumber', 'optional') phoneNumber?: string | null;
  @Text('firstName', 'optional') firstName?: string | null;
  @Text('lastName', 'optional') lastName?: string | null;
  @Text('legalName', 'optional') legalName?: string | null;
  @Text('dateOfBirth', 'optional') dateOfBirth?: string | null;
  @Text('businessName', 'optional') businessName?: string | null;
  @Text('registrationNumber', 'optional') registrationNumber?: string | null;
  @Text('addressLine1', 'optional') addressLine1?: string | null;
  @Text('addressLine2', 'optional') addressLine2?: string | null;
  @Text('city', 'optional') city?: string | null;
  @Text('region', 'optional') region?: string | null;
  @Text('zipCode', 'optional') zipCode?: string | null;
  @Text('country', 'optional') country?: string | null;
  @Text('taxId', 'optional') taxId?: string | null;
  @Text('taxIdType', 'optional') taxIdType?: string | null;
  @Tags('optional') tags?: string[] | null;
  @Metadata('optional') metadata?: Record<string, string> | null;
}

@ApiSchema({
  name: 'CreateBankBeneficiaryRequest',
  description:
    'A bank beneficiary. The fields marked required are required; the rest are optional. ' +
    'Unknown fields are refused (400 `invalid_request`).',
})
export class CreateBankBeneficiaryBody extends BeneficiaryIdentityBody {
  @Text('accountId', 'create') accountId!: string;
  @Text('nickname', 'create') nickname!: string;
  @Text('bankName', 'create') bankName!: string;
  @Text('method', 'create') method!: BankMethod;
  @Text('currency', 'create') currency!: string;
  @Text('swiftCode', 'create') swiftCode!: string;
  @Text('accountNumber', 'create') accountNumber!: string;
  @Text('bankCountry', 'create') bankCountry!: string;
  @Text('iban', 'optional') iban?: string | null;
  @Text('routingNumber', 'optional') routingNumber?: string | null;
  @Text('bankAddressLine1', 'optional') bankAddressLine1?: string | null;
  @Text('bankCity', 'optional') bankCity?: string | null;
  @Text('bankRegion', 'optional') bankRegion?: string | null;
  @Text('bankZipCode', 'optional') bankZipCode?: string | null;
  @Text('intermediaryBankName', 'optional') intermediaryBankName?: string | null;
  @Text('intermediarySwiftCode', 'optional') intermediarySwiftCode?: string | null;
  @Text('intermediaryBankAddress', 'optional') intermediaryBankAddress?: string | null;
}

@ApiSchema({
  name: 'CreateCryptoBeneficiaryRequest',
  description: 'A crypto beneficiary: a wallet address on a chain, with the same identity fields as a bank beneficiary. Unknown fields are refused.',
})
export class CreateCryptoBeneficiaryBody extends BeneficiaryIdentityBody {
  @Text('accountId', 'create') accountId!: string;
  @Text('nickname', 'create') nickname!: string;
  @Text('chainName', 'create') chainName!: string;
  @Text('address', 'create') address!: string;
  @Text('asset', 'optional') asset?: string | null;
}

@ApiSchema({
  name: 'CreateServicenetBeneficiaryRequest',
  description:
    'A SERVICENET beneficiary: another organization of the platform, by its servicenet handle, as the payee of internal transfers ' +
    '(`POST /v1/transfers`). Unknown fields are refused.',
})
export class CreateServicenetBeneficiaryBody {
  @Text('accountId', 'create') accountId!: string;
  @Text('nickname', 'create') nickname!: string;
  @Text('handle', 'create') handle!: string;
  @Tags('optional') tags?: string[] | null;
  @Metadata('optional') metadata?: Record<string, string> | null;
}

@ApiSchema({
  name: 'UpdateBeneficiaryRequest',
  description:
    'Every field optional. An omitted field is unchanged; `null` clears it. `accountId`, `nickname`, `entityType`, `address` and the bank ' +
    'fields `bankName`, `method`, `currency`, `swiftCode`, `accountNumber`, `bankCountry` cannot be cleared (null is 400 `invalid_request` ' +
    '"<field>: cannot be cleared"); every other field can. Bank fields apply to BANK beneficiaries only, `address` to CRYPTO ones only (the chain ' +
    'cannot change: create another beneficiary). The result is validated as a whole, as at creation (e.g. clearing `iban` of a SEPA beneficiary, ' +
    'or `lastName` of an INDIVIDUAL, is refused). Unknown fields are refused.',
})
export class UpdateBeneficiaryBody {
  @Text('accountId', 'patch') accountId?: string | null;
  @Text('nickname', 'patch') nickname?: string | null;
  @Text('address', 'patch') address?: string | null;
  @Text('bankName', 'patch') bankName?: string | null;
  @Text('method', 'patch') method?: BankMethod | null;
  @Text('currency', 'patch') currency?: string | null;
  @Text('swiftCode', 'patch') swiftCode?: string | null;
  @Text('accountNumber', 'patch') accountNumber?: string | null;
  @Text('bankCountry', 'patch') bankCountry?: string | null;
  @Text('iban', 'patch') iban?: string | null;
  @Text('routingNumber', 'patch') routingNumber?: string | null;
  @Text('bankAddressLine1', 'patch') bankAddressLine1?: string | null;
  @Text('bankCity', 'patch') bankCity?: string | null;
  @Text('bankRegion', 'patch') bankRegion?: string | null;
  @Text('bankZipCode', 'patch') bankZipCode?: string | null;
  @Text('intermediaryBankName', 'patch') intermediaryBankName?: string | null;
  @Text('intermediarySwiftCode', 'patch') intermediarySwiftCode?: string | null;
  @Text('intermediaryBankAddress', 'patch') intermediaryBankAddress?: string | null;
  @Text('entityType', 'patch') entityType?: EntityType | null;
  @Text('email', 'patch') email?: string | null;
  @Text('phoneNumber', 'patch') phoneNumber?: string | null;
  @Text('firstName', 'patch') firstName?: string | null;
  @Text('lastName', 'patch') lastName?: string | null;
  @Text('legalName', 'patch') legalName?: string | null;
  @Text('dateOfBirth', 'patch') dateOfBirth?: string | null;
  @Text('businessName', 'patch') businessName?: string | null;
  @Text('registrationNumber', 'patch') registrationNumber?: string | null;
  @Text('addressLine1', 'patch') addressLine1?: string | null;
  @Text('addressLine2', 'patch') addressLine2?: string | null;
  @Text('city', 'patch') city?: string | null;
  @Text('region', 'patch') region?: string | null;
  @Text('zipCode', 'patch') zipCode?: string | null;
  @Text('country', 'patch') country?: string | null;
  @Text('taxId', 'patch') taxId?: string | null;
  @Text('taxIdType', 'patch') taxIdType?: string | null;
  @Tags('patch') tags?: string[] | null;
  @Metadata('patch') metadata?: Record<string, string> | null;
}

/** The fields of a parsed body that the client sent: undefined (absent) is dropped, null kept. */
export function sentFields<T extends object>(body: T): T {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)) as T;
}
