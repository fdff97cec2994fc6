import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsDefined, Matches } from 'class-validator';
import type { ServicenetView } from '@pfs/contracts';
import { SERVICENET_HANDLE_PATTERN, SERVICENET_HANDLE_RULE } from '../beneficiaries/beneficiary-request.dto';

@ApiSchema({
  name: 'Servicenet',
  description:
    'The organization’s servicenet state (internal transfers between organizations of the platform): whether it is enabled and the ' +
    'handle other organizations use to find it (`POST /v1/beneficiaries/servicenet`).',
})
export class ServicenetDto implements ServicenetView {
  @ApiProperty({ enum: ['servicenet'] })
  object!: 'servicenet';

  @ApiProperty({ description: 'Whether the organization can send and receive internal transfers now. False until `POST /v1/servicenet/enable`.' })
  enabled!: boolean;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'acme-payments',
    description: 'The claimed handle, lower-cased; null until claimed. Kept, and still reserved for the organization, while servicenet is disabled.',
  })
  handle!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'When the state last changed; null while never enabled.' })
  updatedAt!: string | null;
}

@ApiSchema({ name: 'ClaimServicenetHandleRequest', description: 'The handle to claim. Unknown fields are refused.' })
export class ClaimServicenetHandleBody {
  @ApiProperty({
    pattern: SERVICENET_HANDLE_PATTERN,
    minLength: 3,
    maxLength: 32,
    example: 'acme-payments',
    description: '3 to 32 of letters, digits, `_` and `-`. Unique without regard to case; stored and answered lower-cased.',
  })
  @IsDefined({ message: 'is required' })
  @Matches(new RegExp(SERVICENET_HANDLE_PATTERN), { message: SERVICENET_HANDLE_RULE })
  handle!: string;
}
