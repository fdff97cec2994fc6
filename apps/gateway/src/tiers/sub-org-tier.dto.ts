import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';
import type { SubOrgTier, SubOrgTierAssignmentView, SubOrgTierView } from '@pfs/contracts';

const TIER_KEY_RULE = 'must be a tier key from GET /v1/sub-org-tiers (e.g. preferred), or null to remove the tier';

@ApiSchema({ name: 'SubOrgTierDetails', description: 'A pricing tier as assigned.' })
export class SubOrgTierDetailsDto implements SubOrgTier {
  @ApiProperty({ example: 'preferred', description: 'Pass it as `subOrgTierKey` to PUT /v1/organizations/sub-org-tier.' })
  key!: string;

  @ApiProperty({ example: 'Preferred' })
  label!: string;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    example: 60,
    description: 'Spread charged on the client’s quotes, in basis points of `fromAmount` (the platform default without a tier is 100).',
  })
  spreadBps!: number;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    example: 20,
    description: 'Share of that spread credited as commission to the client’s creator (or else its referrer), in basis points of the fee.',
  })
  referrerShareBps!: number;
}

@ApiSchema({
  name: 'SubOrgTier',
  description: 'A platform pricing tier the caller can assign to its clients. The platform ships `standard` (100/0), `preferred` (60/20) and `vip` (30/30).',
})
export class SubOrgTierDto extends SubOrgTierDetailsDto implements SubOrgTierView {
  @ApiProperty({ enum: ['sub_org_tier'] })
  object!: 'sub_org_tier';
}

@ApiSchema({ name: 'SubOrgTierList', description: 'The tiers offered to the caller, in full; never paginated.' })
export class SubOrgTierListDto {
  @ApiProperty({ enum: ['list'] })
  object!: 'list';

  @ApiProperty({ type: () => [SubOrgTierDto] })
  data!: SubOrgTierDto[];

  @ApiProperty({ type: 'boolean', description: 'Always false: the list is returned in full.' })
  hasMore!: false;

  @ApiProperty({ type: 'string', nullable: true, description: 'Always null.' })
  nextCursor!: null;
}

@ApiSchema({ name: 'SubOrgTierAssignment', description: 'A client’s pricing tier after the change.' })
export class SubOrgTierAssignmentDto implements SubOrgTierAssignmentView {
  @ApiProperty({ enum: ['sub_org_tier_assignment'] })
  object!: 'sub_org_tier_assignment';

  @ApiProperty({ pattern: '^org_[0-9a-f]{32}$', description: 'The client organization named in `Service-On-Behalf-Of`.' })
  organizationId!: string;

  @ApiProperty({
    type: () => SubOrgTierDetailsDto,
    nullable: true,
    description: 'The tier now assigned; null after removal (the client is back on default pricing, spread 100 bps).',
  })
  tier!: SubOrgTierDetailsDto | null;
}

/** PUT /v1/organizations/sub-org-tier. */
@ApiSchema({ name: 'SetSubOrgTierRequest' })
export class SetSubOrgTierBody {
  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    minLength: 1,
    maxLength: 64,
    example: 'preferred',
    description: 'A key from GET /v1/sub-org-tiers. Null, or omitting the field, removes the tier and returns the client to default pricing.',
  })
  @IsOptional()
  // class-validator reports the last-listed rule first: the type check goes last.
  // Any other string is a key that may not exist: 404 sub_org_tier_not_found, not a malformed body.
  @Length(1, 64, { message: TIER_KEY_RULE })
  @IsString({ message: TIER_KEY_RULE })
  subOrgTierKey?: string | null;
}
