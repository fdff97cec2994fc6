import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches } from 'class-validator';
import {
  BANK_METHODS,
  BENEFICIARY_STATUSES,
  BENEFICIARY_TYPES,
  ENTITY_TYPES,
  type BankMethod,
  type BeneficiaryBankView,
  type BeneficiaryCryptoView,
  type BeneficiaryServicenetView,
  type BeneficiaryStatus,
  type BeneficiaryType,
  type BeneficiaryView,
  type EntityType,
} from '@pfs/contracts';
import { PageQueryDto } from '../lists/page-query.dto';

export const BENEFICIARY_ID_PATTERN = '^bene_[0-9a-f]{32}$';
export const ACCOUNT_ID_PATTERN = '^acct_[0-9a-f]{32}$';
export const ACCOUNT_RULE = 'must be an account id (acct_ followed by 32 lowercase hex characters)';
const COUNTRY = { pattern: '^[A-Z]{2}$', example: 'DE' } as const;

/** Statuses and their moves, written once for the schema and the operations. */
export const BENEFICIARY_LIFECYCLE =
  'Statuses: created `ACTIVE`; `ACTIVE` or `INACTIVE` → `ARCHIVED` (POST …/archive) → `ACTIVE` (POST …/unarchive); ' +
  '`ACTIVE` or `INACTIVE` → `BLOCKED` (sandbox POST /v1/sandbox/beneficiaries/{beneficiaryId}/block) → `ACTIVE` (…/unblock). ' +
  'A `BLOCKED` beneficiary is frozen: PATCH, archive and block answer 409 `beneficiary_blocked` (so archiving cannot shed a block). ' +
  'An `ARCHIVED` one refuses PATCH, archive, block and unblock with 409 `beneficiary_already_archived`. `INACTIVE` is reserved: nothing moves a ' +
  'beneficiary there yet. Only an `ACTIVE` beneficiary can be paid.';

@ApiSchema({
  name: 'BeneficiaryBank',
  description:
    '`bank` of a BANK beneficiary. The full account number is never returned, only its last four characters; ' +
    'identifiers are answered as stored: upper-cased, without spaces or dashes.',
})
export class BeneficiaryBankDto implements BeneficiaryBankView {
  @ApiProperty({ example: 'Deutsche Bank' })
  bankName!: string;

  @ApiProperty({ enum: BANK_METHODS, enumName: 'BankMethod' })
  method!: BankMethod;

  @ApiProperty({ example: 'EUR', description: 'A FIAT asset code of the catalog.' })
  currency!: string;

  @ApiProperty({ pattern: '^[A-Z0-9]{8}([A-Z0-9]{3})?$', example: 'DEUTDEFF', description: 'SWIFT/BIC code.' })
  swiftCode!: string;

  @ApiProperty({ ...COUNTRY, description: 'ISO 3166-1 alpha-2.' })
  bankCountry!: string;

  @ApiProperty({ type: 'string', nullable: true, pattern: '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$', example: 'DE89370400440532013000' })
  iban!: string | null;

  @ApiProperty({ type: 'string', nullable: true, pattern: '^[0-9]{9}$', example: '021000021', description: 'ABA routing number (US).' })
  routingNumber!: string | null;

  @ApiProperty({ pattern: '^[A-Z0-9]{4}$', example: '3000', description: 'The last four characters of the account number; the full number is never returned.' })
  accountNumberLast4!: string;

  @ApiProperty({ type: 'string', nullable: true, example: 'Taunusanlage 12' })
  bankAddressLine1!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'Frankfurt am Main' })
  bankCity!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'Hesse' })
  bankRegion!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: '60325' })
  bankZipCode!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  intermediaryBankName!: string | null;

  @ApiProperty({ type: 'string', nullable: true, pattern: '^[A-Z0-9]{8}([A-Z0-9]{3})?$' })
  intermediarySwiftCode!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  intermediaryBankAddress!: string | null;
}

@ApiSchema({
  name: 'BeneficiaryServicenet',
  description:
    '`servicenet` of a SERVICENET beneficiary: the receiving organization as its handle and name were when the beneficiary ' +
    'was created. A later change of handle or name does not change it; transfers still reach that organization.',
})
export class BeneficiaryServicenetDto implements BeneficiaryServicenetView {
  @ApiProperty({ example: 'acme-payments', description: 'Lower-cased.' })
  handle!: string;

  @ApiProperty({ example: 'Acme Payments Ltd' })
  organizationName!: string;
}

@ApiSchema({ name: 'BeneficiaryCrypto', description: '`crypto` of a CRYPTO beneficiary, with the asset it is paid in when one was given.' })
export class BeneficiaryCryptoDto implements BeneficiaryCryptoView {
  @ApiProperty({ example: 'ETHEREUM_SEPOLIA' })
  chainName!: string;

  @ApiProperty({ example: 'Ethereum Sepolia' })
  chainDisplayName!: string;

  @ApiProperty({ enum: ['EVM', 'SOLANA', 'TRON'], enumName: 'ChainPlatform', description: 'The address format of the chain.' })
  platform!: 'EVM' | 'SOLANA' | 'TRON';

  @ApiProperty({
    example: '0x52908400098527886E0F7030069857D2E4169EE7',
    description: 'Wallet address. EVM addresses are answered EIP-55 checksummed, whatever case they were sent in.',
  })
  address!: string;

  @ApiProperty({ type: 'string', nullable: true, example: 'USDC', description: 'The crypto asset the beneficiary is paid in; null when none was given.' })
  asset!: string | null;
}

@ApiSchema({
  name: 'Beneficiary',
  description:
    'A payout recipient of an account. `type` says which detail object is filled (`bank` or `crypto`); the other is null. ' +
    `${BENEFICIARY_LIFECYCLE} Tax ids are write-only: \`taxId\` is never returned (only \`taxIdType\`).`,
})
export class BeneficiaryDto implements BeneficiaryView {
  @ApiProperty({ enum: ['beneficiary'] })
  object!: 'beneficiary';

  @ApiProperty({ pattern: BENEFICIARY_ID_PATTERN, example: 'bene_9a2c4e6f8b0d1c3e5a7f9b2d4c6e8a0f' })
  beneficiaryId!: string;

  @ApiProperty({ pattern: ACCOUNT_ID_PATTERN, example: 'acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c', description: 'The account the beneficiary belongs to.' })
  accountId!: string;

  @ApiProperty({ enum: BENEFICIARY_TYPES, enumName: 'BeneficiaryType', description: '`SERVICENET`: another organization of the platform, paid by internal transfer (`POST /v1/transfers`).' })
  type!: BeneficiaryType;

  @ApiProperty({ example: 'Supplier GmbH (EUR)' })
  nickname!: string;

  @ApiProperty({ enum: BENEFICIARY_STATUSES, enumName: 'BeneficiaryStatus', description: 'See the moves above.' })
  status!: BeneficiaryStatus;

  @ApiProperty({ enum: ENTITY_TYPES, enumName: 'EntityType', nullable: true, description: 'Null when none was given.' })
  entityType!: EntityType | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'payables@supplier.example' })
  email!: string | null;

  @ApiProperty({ type: 'string', nullable: true, pattern: '^\\+[1-9][0-9]{1,14}$', example: '+4969123456', description: 'E.164.' })
  phoneNumber!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'Ada' })
  firstName!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'Lovelace' })
  lastName!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  legalName!: string | null;

  @ApiProperty({ type: 'string', nullable: true, format: 'date', example: '1990-12-10', description: '`YYYY-MM-DD`.' })
  dateOfBirth!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'Supplier GmbH' })
  businessName!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'HRB 12345' })
  registrationNumber!: string | null;

  @ApiProperty({ type: 'string', nullable: true, ...COUNTRY, description: 'ISO 3166-1 alpha-2.' })
  country!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  addressLine1!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  addressLine2!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  city!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'Region, state or province.' })
  region!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  zipCode!: string | null;

  @ApiProperty({ type: 'string', nullable: true, pattern: '^[A-Z0-9_]+$', example: 'TIN', description: 'The kind of the tax id given; the tax id itself is never returned.' })
  taxIdType!: string | null;

  @ApiProperty({ type: 'array', items: { type: 'string', maxLength: 100 }, maxItems: 20, example: ['supplier'], description: 'Empty when none.' })
  tags!: string[];

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    maxProperties: 50,
    example: { erpId: 'V-1042' },
    description: 'Empty when none.',
  })
  metadata!: Record<string, string>;

  @ApiProperty({ type: () => BeneficiaryCryptoDto, nullable: true, description: 'Set when `type` is CRYPTO.' })
  crypto!: BeneficiaryCryptoDto | null;

  @ApiProperty({ type: () => BeneficiaryBankDto, nullable: true, description: 'Set when `type` is BANK.' })
  bank!: BeneficiaryBankDto | null;

  @ApiProperty({
    type: () => BeneficiaryServicenetDto,
    nullable: true,
    description: 'Set when `type` is SERVICENET: the receiving organization’s handle and name. Never its ids or accounts.',
  })
  servicenet!: BeneficiaryServicenetDto | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    pattern: BENEFICIARY_ID_PATTERN,
    description:
      'The earlier beneficiary of the same account with the same destination (same account number or IBAN at the same bank; same chain and ' +
      'address), if any. Such a duplicate is allowed, only flagged, so a payout operator can notice it.',
  })
  duplicateOf!: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time', description: 'The last change (PATCH or a status move).' })
  updatedAt!: string;
}

/** GET /v1/beneficiaries: the page and the filters (each narrows; all combine). */
export class BeneficiaryListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ pattern: ACCOUNT_ID_PATTERN, description: 'Only this account’s beneficiaries.' })
  @IsOptional()
  @Matches(new RegExp(ACCOUNT_ID_PATTERN), { message: ACCOUNT_RULE })
  accountId?: string;

  @ApiPropertyOptional({ enum: BENEFICIARY_TYPES, enumName: 'BeneficiaryType' })
  @IsOptional()
  @IsIn(BENEFICIARY_TYPES, { message: `must be one of ${BENEFICIARY_TYPES.join(', ')}` })
  type?: BeneficiaryType;

  @ApiPropertyOptional({ enum: BENEFICIARY_STATUSES, enumName: 'BeneficiaryStatus' })
  @IsOptional()
  @IsIn(BENEFICIARY_STATUSES, { message: `must be one of ${BENEFICIARY_STATUSES.join(', ')}` })
  status?: BeneficiaryStatus;
}
