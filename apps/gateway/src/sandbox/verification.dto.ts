import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { VERIFICATION_STATUSES, type VerificationStatus } from '@pfs/contracts';

/** POST /v1/sandbox/organizations/{organizationId}/verification. */
@ApiSchema({ name: 'SetVerificationRequest' })
export class SetVerificationBody {
  @ApiProperty({ enum: VERIFICATION_STATUSES, enumName: 'VerificationStatus' })
  @IsIn(VERIFICATION_STATUSES, { message: `must be one of ${VERIFICATION_STATUSES.join(', ')}` })
  status!: VerificationStatus;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    maxLength: 500,
    example: 'Proof of address is older than three months.',
    description: 'Required for `ON_HOLD` and `RESUBMISSION_REQUIRED` (it tells the organization what to fix); refused with the other statuses.',
  })
  @IsOptional()
  // class-validator reports the last-listed rule first: the type check goes last.
  @MaxLength(500, { message: 'must be at most 500 characters' })
  @IsString({ message: 'must be a string' })
  reason?: string | null;
}
