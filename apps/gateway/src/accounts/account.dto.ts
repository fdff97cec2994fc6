import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { AccountStatus, AccountView, BalanceView, BankDetailsView, FundingMethodView } from '@pfs/contracts';

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

@ApiSchema({ name: 'FundingMethod', description: 'A way to receive an asset into the account (api-decisions §4).' })
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

@ApiSchema({ name: 'Account', description: 'An account with its real-time balances (spec 2.4).' })
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
