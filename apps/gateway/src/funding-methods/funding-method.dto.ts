import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { FundingMethodDto } from '../accounts/account.dto';

const ASSET_RULE = 'must be an asset code (a string of 1–32 characters)';
const ACCOUNT_RULE = 'must be an account id (acct_ followed by 32 lowercase hex characters)';

@ApiSchema({ name: 'ProvisionFundingMethodsRequest', description: 'Enables an asset and provisions its receiving methods on an account.' })
export class ProvisionFundingMethodsBody {
  @ApiProperty({
    type: 'string',
    example: 'USDC',
    maxLength: 32,
    description: 'Asset code, as listed by GET /v1/assets. A code outside that list is 404 `not_found`.',
  })
  @IsString({ message: ASSET_RULE })
  @MinLength(1, { message: ASSET_RULE })
  @MaxLength(32, { message: ASSET_RULE })
  asset!: string;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    pattern: '^acct_[0-9a-f]{32}$',
    example: 'acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c',
    description:
      'Account to receive into; omitted or null means the organization’s primary account. An account of another organization or an unknown one is 404 `account_not_found`.',
  })
  @IsOptional()
  @Matches(/^acct_[0-9a-f]{32}$/, { message: ACCOUNT_RULE })
  accountId?: string | null;
}

@ApiSchema({ name: 'FundingMethodList', description: 'Every receiving method of the asset on the account; never paginated.' })
export class FundingMethodListDto {
  @ApiProperty({ enum: ['list'] })
  object!: 'list';

  @ApiProperty({ type: () => [FundingMethodDto] })
  data!: FundingMethodDto[];

  @ApiProperty({ type: 'boolean', description: 'Always false: the list is returned in full.' })
  hasMore!: false;

  @ApiProperty({ type: 'string', nullable: true, description: 'Always null.' })
  nextCursor!: null;
}
