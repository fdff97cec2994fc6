import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { PAYOUT_RAILS, type FeesView, type PayoutFeeView, type PayoutRail } from '@pfs/contracts';

@ApiSchema({ name: 'PayoutFee', description: 'The flat fee of one payout on a rail in an asset, charged on top of the amount.' })
export class PayoutFeeDto implements PayoutFeeView {
  @ApiProperty({ enum: ['payout_fee'] })
  object!: 'payout_fee';

  @ApiProperty({ enum: PAYOUT_RAILS, enumName: 'PayoutRail' })
  rail!: PayoutRail;

  @ApiProperty({ example: 'USD' })
  asset!: string;

  @ApiProperty({ pattern: '^[0-9]+(\\.[0-9]+)?$', example: '1.00' })
  amount!: string;
}

@ApiSchema({ name: 'FeeTier', description: 'The pricing tier in force.' })
export class FeeTierDto {
  @ApiProperty({ example: 'preferred' })
  key!: string;

  @ApiProperty({ example: 'Preferred' })
  label!: string;
}

@ApiSchema({ name: 'Fees', description: 'The organization’s effective pricing.' })
export class FeesDto implements FeesView {
  @ApiProperty({ enum: ['fees'] })
  object!: 'fees';

  @ApiProperty({ pattern: '^org_[0-9a-f]{32}$', description: 'Whose pricing this is: the caller, or the client named in `Service-On-Behalf-Of`.' })
  organizationId!: string;

  @ApiProperty({ type: () => FeeTierDto, nullable: true, description: 'The tier in force; null for platform default pricing.' })
  tier!: FeeTierDto | null;

  @ApiProperty({ type: 'integer', example: 100, description: 'Spread on every trade, in basis points of the source amount (platform default 100).' })
  spreadBps!: number;

  @ApiProperty({ type: 'integer', example: 0, description: 'Share of the spread credited to the organization’s creator, or else its referrer, in basis points of the fee.' })
  referrerShareBps!: number;

  @ApiProperty({ type: () => [PayoutFeeDto], description: 'Per rail and asset; a rail and asset not listed pays no fee.' })
  payoutFees!: PayoutFeeDto[];
}
