import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsEmail, IsIn, IsISO31661Alpha2, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { ENTITY_TYPES, VERIFICATION_STATUSES, type EntityType, type OrganizationView, type VerificationStatus } from '@pfs/contracts';

const ORGANIZATION_ID = '^org_[0-9a-f]{32}$';
const COUNTRY_RULE = 'must be an ISO 3166-1 alpha-2 country code in capitals, e.g. DE';

@ApiSchema({
  name: 'Organization',
  description: 'An organization: the caller itself or a client it created.',
})
export class OrganizationDto implements OrganizationView {
  @ApiProperty({ enum: ['organization'] })
  object!: 'organization';

  @ApiProperty({ pattern: ORGANIZATION_ID, example: 'org_5b0e7d1c9a3f4e2b8c6d0a1f3e5b7c9d' })
  organizationId!: string;

  @ApiProperty({ example: 'Client GmbH' })
  name!: string;

  @ApiProperty({
    enum: ENTITY_TYPES,
    enumName: 'EntityType',
    nullable: true,
    description: 'Null for root organizations created by the operator.',
  })
  entityType!: EntityType | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'DE', description: 'ISO 3166-1 alpha-2; null for root organizations.' })
  country!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'finance@client.example' })
  email!: string | null;

  @ApiProperty({
    enum: VERIFICATION_STATUSES,
    enumName: 'VerificationStatus',
    description: 'KYC/KYB status; `PENDING` at creation. Every change emits `organization.verification.updated`.',
  })
  verificationStatus!: VerificationStatus;

  @ApiProperty({
    type: 'string',
    nullable: true,
    pattern: ORGANIZATION_ID,
    description: 'The creator (broker): the organization that called POST /v1/organizations. Null for root organizations.',
  })
  parentOrganizationId!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    pattern: ORGANIZATION_ID,
    description: 'The organization whose referral invite it signed up through; null otherwise.',
  })
  referrerOrganizationId!: string | null;

  @ApiProperty({
    pattern: '^acct_[0-9a-f]{32}$',
    description: 'The primary account, open from the moment the organization is returned.',
  })
  primaryAccountId!: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-21T04:44:09.123Z' })
  createdAt!: string;
}

/** POST /v1/organizations. */
@ApiSchema({ name: 'CreateOrganizationRequest' })
export class CreateOrganizationBody {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Client GmbH', description: 'Surrounding spaces are removed.' })
  // class-validator reports the last-listed rule first: the type check goes last.
  @MaxLength(200, { message: 'must be at most 200 characters' })
  @Matches(/\S/, { message: 'must not be empty' })
  @IsString({ message: 'must be a string of 1–200 characters' })
  name!: string;

  @ApiProperty({ enum: ENTITY_TYPES, enumName: 'EntityType' })
  @IsIn(ENTITY_TYPES, { message: `must be one of ${ENTITY_TYPES.join(', ')}` })
  entityType!: EntityType;

  @ApiProperty({ pattern: '^[A-Z]{2}$', example: 'DE', description: 'ISO 3166-1 alpha-2, in capitals.' })
  @Matches(/^[A-Z]{2}$/, { message: COUNTRY_RULE })
  @IsISO31661Alpha2({ message: COUNTRY_RULE })
  country!: string;

  @ApiPropertyOptional({ type: 'string', nullable: true, format: 'email', maxLength: 254, example: 'finance@client.example' })
  @IsOptional()
  @MaxLength(254, { message: 'must be at most 254 characters' })
  @IsEmail({}, { message: 'must be an email address' })
  email?: string | null;
}
