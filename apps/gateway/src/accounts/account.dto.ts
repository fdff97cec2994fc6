import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import type { AccountEntryView, AccountStatus, AccountView, BalanceView, BankDetailsView, FundingMethodView } from '@pfs/contracts';

@ApiSchema({ name: 'Balance' })
export class BalanceDto implements BalanceView {
  @ApiProperty({ enum: ['balance'] })
  object!: 'balance';

  @ApiProperty({ example: 'USDC', description: 'Asset code.' })
  asset!: string;

  @ApiProperty({
    example: '125.500000',
    pattern: '^[0-9]+(\\.[0-9]+)?$',
    description: 'Decimal string in major units, with the asset’s scale of decimals.',
  })
  amount!: string;
}

@ApiSchema({ name: 'BankDetails', description: 'Where to send a bank transfer to fund the account.' })
export class BankDetailsDto implements BankDetailsView {
  @ApiProperty()
  bankName!: string;

  @ApiProperty()
  accountNumber!: string;

  @ApiProperty({ type: 'string', nullable: true })
  routingNumber!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  iban!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  swiftCode!: string | null;

  @ApiProperty({ description: 'Reference to quote on the transfer so it is credited to this account.' })
  reference!: string;
}

@ApiSchema({ name: 'FundingMethod', description: 'A way to receive an asset into the account.' })
export class FundingMethodDto implements FundingMethodView {
  @ApiProperty({ enum: ['funding_method'] })
  object!: 'funding_method';

  @ApiProperty({ pattern: '^fm_[0-9a-f]{32}$' })
  fundingMethodId!: string;

  @ApiProperty({ pattern: '^acct_[0-9a-f]{32}$' })
  accountId!: string;

  @ApiProperty({ example: 'USDC' })
  asset!: string;

  @ApiProperty({ enum: ['CRYPTO_ADDRESS', 'BANK_ACCOUNT'], enumName: 'FundingMethodType' })
  type!: 'CRYPTO_ADDRESS' | 'BANK_ACCOUNT';

  @ApiProperty({ type: 'string', nullable: true, example: 'ETHEREUM_SEPOLIA', description: 'Set for CRYPTO_ADDRESS.' })
  chainName!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'Deposit address; set for CRYPTO_ADDRESS.' })
  address!: string | null;

  @ApiProperty({ type: () => BankDetailsDto, nullable: true, description: 'Set for BANK_ACCOUNT.' })
  bank!: BankDetailsDto | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
}

@ApiSchema({ name: 'Account', description: 'An account with its real-time balances.' })
export class AccountDto implements AccountView {
  @ApiProperty({ enum: ['account'] })
  object!: 'account';

  @ApiProperty({ pattern: '^acct_[0-9a-f]{32}$', example: 'acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c' })
  accountId!: string;

  @ApiProperty({ example: 'Primary account' })
  name!: string;

  @ApiProperty({ type: 'string', nullable: true })
  description!: string | null;

  @ApiProperty({ description: 'Whether this is the organization’s primary account.' })
  isPrimary!: boolean;

  @ApiProperty({ enum: ['ACTIVE', 'SUSPENDED', 'CLOSED'], enumName: 'AccountStatus' })
  status!: AccountStatus;

  @ApiProperty({ type: () => [FundingMethodDto] })
  fundingMethods!: FundingMethodDto[];

  @ApiProperty({ type: () => [BalanceDto], description: 'One entry per asset held; empty for a new account.' })
  balances!: BalanceDto[];

  @ApiProperty({ format: 'date-time', example: '2026-11-21T04:44:09.123Z' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-21T04:44:09.123Z' })
  updatedAt!: string;
}

const NAME_RULE = 'must be a name of 1–100 characters';
const DESCRIPTION_RULE = 'must be a string of at most 500 characters, or null';

@ApiSchema({ name: 'OpenAccountRequest', description: 'A further account of the organization.' })
export class OpenAccountBody {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Treasury' })
  @IsString({ message: NAME_RULE })
  @Matches(/\S/, { message: NAME_RULE })
  @MaxLength(100, { message: NAME_RULE })
  name!: string;

  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: 500, example: 'Client money held for settlement' })
  @IsOptional()
  @IsString({ message: DESCRIPTION_RULE })
  @MaxLength(500, { message: DESCRIPTION_RULE })
  description?: string | null;
}

@ApiSchema({ name: 'UpdateAccountRequest', description: 'Renames an account or changes its description; a field left out is kept, at least one is given.' })
export class UpdateAccountBody {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100, example: 'Treasury (EUR)' })
  @ValidateIf((body: UpdateAccountBody) => body.name !== undefined || body.description === undefined)
  @IsString({ message: `${NAME_RULE} (give name, description or both)` })
  @Matches(/\S/, { message: NAME_RULE })
  @MaxLength(100, { message: NAME_RULE })
  name?: string;

  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: 500, description: 'null clears it.' })
  @IsOptional()
  @IsString({ message: DESCRIPTION_RULE })
  @MaxLength(500, { message: DESCRIPTION_RULE })
  description?: string | null;
}

@ApiSchema({ name: 'AccountEntry', description: 'One journal line on the account: a statement line, with the balance it left.' })
export class AccountEntryDto implements AccountEntryView {
  @ApiProperty({ enum: ['account_entry'] })
  object!: 'account_entry';

  @ApiProperty({ pattern: '^jrnl_[0-9a-f]{32}$', description: 'The journal entry this line belongs to (one per balance change).' })
  journalId!: string;

  @ApiProperty({
    pattern: '^txn_[0-9a-f]{32}$',
    description:
      'This account’s own transaction for the line, which `GET /v1/transactions/{id}` opens: the one whose status change moved the money, or, for money received from another organization, ' +
      'the receiving side (the `RECEIVER` side of a transfer, the `COMMISSION` of a trade), never the other organization’s transaction.',
  })
  transactionId!: string;

  @ApiProperty({ pattern: '^acct_[0-9a-f]{32}$' })
  accountId!: string;

  @ApiProperty({ example: 'USDC' })
  asset!: string;

  @ApiProperty({ pattern: '^-?[0-9]+(\\.[0-9]+)?$', example: '-25.000000', description: 'Signed: positive credits the account, negative debits it.' })
  amount!: string;

  @ApiProperty({ pattern: '^[0-9]+(\\.[0-9]+)?$', example: '100.000000', description: 'The account’s balance in the asset right after this line.' })
  balanceAfter!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
}
