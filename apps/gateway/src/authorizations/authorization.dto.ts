import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { AUTHORIZATION_STATUSES, type AuthorizationStatus, type AuthorizationView } from '@pfs/contracts';

const ORGANIZATION_ID = '^org_[0-9a-f]{32}$';

@ApiSchema({
  name: 'Authorization',
  description:
    'A Letter of Authorization (LOA): the grantor lets the grantee act for it with `Service-On-Behalf-Of` where LOAs are accepted (the asset list). ' +
    'Never enough to set a pricing tier.',
})
export class AuthorizationDto implements AuthorizationView {
  @ApiProperty({ enum: ['authorization'] })
  object!: 'authorization';

  @ApiProperty({ pattern: '^loa_[0-9a-f]{32}$', example: 'loa_3e1d9c7b5a4f2e0d8c6b4a2f0e9d7c5b' })
  authorizationId!: string;

  @ApiProperty({ pattern: ORGANIZATION_ID, description: 'The organization that signed it (the caller of POST /v1/authorizations).' })
  grantorOrganizationId!: string;

  @ApiProperty({ pattern: ORGANIZATION_ID, description: 'The organization allowed to act for the grantor.' })
  granteeOrganizationId!: string;

  @ApiProperty({ enum: AUTHORIZATION_STATUSES, enumName: 'AuthorizationStatus', description: '`REVOKED` is final.' })
  status!: AuthorizationStatus;

  @ApiProperty({ format: 'date-time', example: '2026-11-21T04:44:09.123Z' })
  createdAt!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'When it was first revoked; null while ACTIVE.' })
  revokedAt!: string | null;
}

/** POST /v1/authorizations. */
@ApiSchema({ name: 'CreateAuthorizationRequest' })
export class CreateAuthorizationBody {
  @ApiProperty({ pattern: ORGANIZATION_ID, example: 'org_5b0e7d1c9a3f4e2b8c6d0a1f3e5b7c9d', description: 'Another organization than the caller.' })
  @Matches(new RegExp(ORGANIZATION_ID), { message: 'must be an organization id, org_ followed by 32 lowercase hex characters' })
  granteeOrganizationId!: string;
}
