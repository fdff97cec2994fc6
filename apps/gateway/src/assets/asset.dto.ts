import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ASSET_STATUSES, type AssetStatus, type AssetType, type AssetView } from '@pfs/contracts';

@ApiSchema({ name: 'Asset', description: 'An asset the organization can receive.' })
export class AssetDto implements AssetView {
  @ApiProperty({ enum: ['asset'] })
  object!: 'asset';

  @ApiProperty({ example: 'USDC', description: 'Asset code; pass it as `asset` to POST /v1/funding-methods.' })
  code!: string;

  @ApiProperty({ example: 'USD Coin' })
  name!: string;

  @ApiProperty({ enum: ['FIAT', 'CRYPTO'], enumName: 'AssetType' })
  type!: AssetType;

  @ApiProperty({ type: 'integer', format: 'int32', example: 6, description: 'Decimal places amounts in this asset carry.' })
  scale!: number;

  @ApiProperty({
    enum: ASSET_STATUSES,
    enumName: 'AssetStatus',
    description: '`ENABLED`: already granted to the organization; `AVAILABLE`: not granted yet.',
  })
  status!: AssetStatus;
}

@ApiSchema({ name: 'AssetList', description: 'The full asset list; never paginated.' })
export class AssetListDto {
  @ApiProperty({ enum: ['list'] })
  object!: 'list';

  @ApiProperty({ type: () => [AssetDto] })
  data!: AssetDto[];

  @ApiProperty({ type: 'boolean', description: 'Always false: the list is returned in full.' })
  hasMore!: false;

  @ApiProperty({ type: 'string', nullable: true, description: 'Always null.' })
  nextCursor!: null;
}
