import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { IsAmount } from '../validation/is-amount.decorator';
import { IsReference } from '../validation/is-reference.decorator';

const ACCOUNT_RULE = 'must be an account id (acct_ followed by 32 lowercase hex characters)';
const BENEFICIARY_RULE = 'must be a beneficiary id (bene_ followed by 32 lowercase hex characters)';
const ASSET_RULE = 'must be an asset code (a string of 1–32 characters)';

@ApiSchema({ name: 'TransferRequest', description: 'An internal transfer to a SERVICENET beneficiary. Unknown fields are refused.' })
export class CreateTransferBody {
  @ApiProperty({ pattern: '^acct_[0-9a-f]{32}$', example: 'acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c', description: 'Account to send from: one of the organization’s own, the beneficiary’s account.' })
  @Matches(/^acct_[0-9a-f]{32}$/, { message: ACCOUNT_RULE })
  accountId!: string;

  @ApiProperty({ pattern: '^bene_[0-9a-f]{32}$', example: 'bene_9a2c4e6f8b0d1c3e5a7f9b2d4c6e8a0f', description: 'An ACTIVE SERVICENET beneficiary of that account.' })
  @Matches(/^bene_[0-9a-f]{32}$/, { message: BENEFICIARY_RULE })
  beneficiaryId!: string;

  @ApiProperty({ example: 'USDC', maxLength: 32, description: 'Any asset of the catalog (GET /v1/assets).' })
  @IsString({ message: ASSET_RULE })
  @MinLength(1, { message: ASSET_RULE })
  @MaxLength(32, { message: ASSET_RULE })
  asset!: string;

  @IsAmount({ assetField: 'asset', description: 'Amount the receiving organization receives; no fee is charged' })
  amount!: string;

  @IsReference('Shown on both sides’ transactions.')
  reference?: string;
}
