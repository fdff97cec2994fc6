import { ApiProperty, ApiPropertyOptional, ApiSchema, PickType } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import {
  PAYOUT_RAILS,
  SANDBOX_CHAINS,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  type PayoutDestinationView,
  type PayoutRail,
  type TransactionStatus,
  type TransactionType,
  type TransactionView,
} from '@pfs/contracts';
import { BeneficiaryBankDto, BeneficiaryCryptoDto } from '../beneficiaries/beneficiary.dto';
import { PageQueryDto } from '../lists/page-query.dto';
import { IsAmount } from '../validation/is-amount.decorator';

const ACCOUNT_ID = '^acct_[0-9a-f]{32}$';
const ACCOUNT_RULE = 'must be an account id (acct_ followed by 32 lowercase hex characters)';
const ASSET_RULE = 'must be an asset code (a string of 1–32 characters)';
const AMOUNT = { pattern: '^[0-9]+(\\.[0-9]+)?$', example: '125.500000' } as const;

@ApiSchema({
  name: 'PayoutDestinationBank',
  description: 'The bank account a fiat payout is sent to, masked as a beneficiary’s: the account number only by its last four characters, no IBAN.',
})
export class PayoutDestinationBankDto extends PickType(BeneficiaryBankDto, [
  'bankName',
  'method',
  'currency',
  'swiftCode',
  'bankCountry',
  'routingNumber',
  'accountNumberLast4',
] as const) {}

@ApiSchema({ name: 'PayoutDestinationCrypto', description: 'The chain and address a crypto payout is sent to.' })
export class PayoutDestinationCryptoDto extends PickType(BeneficiaryCryptoDto, ['chainName', 'platform', 'address'] as const) {}

@ApiSchema({
  name: 'PayoutDestination',
  description:
    'Where a payout goes, taken from its beneficiary when the payout was created and kept with the payout. A later PATCH of the beneficiary (a new ' +
    'address, new bank details, another account) changes neither this nor where the payout is sent; it applies to the next payouts only. ' +
    '`rail` says which of `bank` and `crypto` is filled; the other is null.',
})
export class PayoutDestinationDto implements PayoutDestinationView {
  @ApiProperty({ enum: PAYOUT_RAILS, enumName: 'PayoutRail' })
  rail!: PayoutRail;

  @ApiProperty({ example: 'Treasury wallet', description: 'The beneficiary’s nickname at the time.' })
  nickname!: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'Acme Supplies GmbH',
    description: 'The holder’s name at the time (legal, business, or first and last name); null when the beneficiary gave none.',
  })
  name!: string | null;

  @ApiProperty({ type: () => PayoutDestinationBankDto, nullable: true, description: 'Set for a fiat payout.' })
  bank!: PayoutDestinationBankDto | null;

  @ApiProperty({ type: () => PayoutDestinationCryptoDto, nullable: true, description: 'Set for a crypto payout.' })
  crypto!: PayoutDestinationCryptoDto | null;
}

@ApiSchema({
  name: 'Transaction',
  description:
    'A movement of money. Fields that do not apply to a type are null. ' +
    'Status moves EXPECTED → LOCKED → COMPLETED | DECLINED, EXPECTED → DECLINED and COMPLETED → REFUNDED; each move emits `transaction.status.updated`.',
})
export class TransactionDto implements TransactionView {
  @ApiProperty({ enum: ['transaction'] })
  object!: 'transaction';

  @ApiProperty({ pattern: '^txn_[0-9a-f]{32}$', example: 'txn_8a1c3e5f7b9d4f2a6c8e0b2d4f6a8c0e' })
  transactionId!: string;

  @ApiProperty({ enum: TRANSACTION_TYPES, enumName: 'TransactionType' })
  type!: TransactionType;

  @ApiProperty({ enum: TRANSACTION_STATUSES, enumName: 'TransactionStatus' })
  status!: TransactionStatus;

  @ApiProperty({ pattern: ACCOUNT_ID, description: 'The account credited (payins) or debited (payouts).' })
  accountId!: string;

  @ApiProperty({ ...AMOUNT, description: 'Major units, with the asset’s scale of decimals; always positive (the type says the direction).' })
  amount!: string;

  @ApiProperty({ example: 'USDC' })
  asset!: string;

  @ApiProperty({ type: 'string', nullable: true, example: 'ETHEREUM_SEPOLIA', description: 'The chain of a crypto payin or payout; null otherwise.' })
  chainName!: string | null;

  @ApiProperty({ type: 'string', nullable: true, pattern: '^bene_[0-9a-f]{32}$', description: 'The beneficiary of a payout.' })
  beneficiaryId!: string | null;

  @ApiProperty({ type: 'string', nullable: true, pattern: '^quote_[0-9a-f]{32}$', description: 'The quote a trade executed.' })
  quoteId!: string | null;

  @ApiProperty({ type: 'string', nullable: true, ...AMOUNT, description: 'Fee charged on top of `amount`, in `feeAsset`; null when the type carries none.' })
  fee!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'USDC' })
  feeAsset!: string | null;

  @ApiProperty({ type: 'string', nullable: true, pattern: '^org_[0-9a-f]{32}$', description: 'The other organization of an internal transfer.' })
  counterpartyOrganizationId!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'The payer’s reference, when one was given.' })
  reference!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'Why a transaction was DECLINED; null otherwise.' })
  failureReason!: string | null;

  @ApiProperty({
    type: () => PayoutDestinationDto,
    nullable: true,
    description: 'Where a payout goes, as its beneficiary was when the payout was created; null for every other type (and for payouts created before destinations were recorded).',
  })
  destination!: PayoutDestinationDto | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time', description: 'The last status change.' })
  updatedAt!: string;
}

@ApiSchema({ name: 'FaucetRequest', description: 'A simulated crypto deposit.' })
export class FaucetBody {
  @ApiProperty({ pattern: ACCOUNT_ID, example: 'acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c', description: 'Account to credit: one of the organization’s own.' })
  @Matches(/^acct_[0-9a-f]{32}$/, { message: ACCOUNT_RULE })
  accountId!: string;

  @ApiProperty({ example: 'USDC', maxLength: 32, description: 'A crypto asset activated on the account with POST /v1/funding-methods.' })
  @IsString({ message: ASSET_RULE })
  @MinLength(1, { message: ASSET_RULE })
  @MaxLength(32, { message: ASSET_RULE })
  asset!: string;

  @IsAmount({ assetField: 'asset', description: 'Amount to credit' })
  amount!: string;

  @ApiProperty({ enum: SANDBOX_CHAINS, enumName: 'SandboxChain', description: 'Chain of one of the account’s deposit addresses for the asset.' })
  @IsIn(SANDBOX_CHAINS, { message: `must be one of ${SANDBOX_CHAINS.join(', ')}` })
  chainName!: string;
}

const TIMESTAMP_RULE = 'must be an ISO 8601 timestamp such as 2026-11-21T04:44:09.123Z';

/** GET /v1/transactions: the page and the filters (each narrows; all combine). */
export class TransactionListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ pattern: ACCOUNT_ID, description: 'Only this account’s transactions.' })
  @IsOptional()
  @Matches(/^acct_[0-9a-f]{32}$/, { message: ACCOUNT_RULE })
  accountId?: string;

  @ApiPropertyOptional({ enum: TRANSACTION_TYPES, enumName: 'TransactionType' })
  @IsOptional()
  @IsIn(TRANSACTION_TYPES, { message: `must be one of ${TRANSACTION_TYPES.join(', ')}` })
  type?: TransactionType;

  @ApiPropertyOptional({ enum: TRANSACTION_STATUSES, enumName: 'TransactionStatus' })
  @IsOptional()
  @IsIn(TRANSACTION_STATUSES, { message: `must be one of ${TRANSACTION_STATUSES.join(', ')}` })
  status?: TransactionStatus;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only transactions created at or after this instant.' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: TIMESTAMP_RULE })
  createdAfter?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only transactions created at or before this instant.' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: TIMESTAMP_RULE })
  createdBefore?: string;
}
