import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { REFERRAL_INVITE_STATUSES, type ReferralInviteStatus, type ReferralInviteView } from '@pfs/contracts';
import { OrganizationDto } from '../organizations/organization.dto';

const EMAIL_SHAPE = /^\s*[^\s@]+@[^\s@]+\.[^\s@]+\s*$/;

@ApiSchema({ name: 'ReferralInvite', description: 'A sign-up link locked to one customer email.' })
export class ReferralInviteDto implements ReferralInviteView {
  @ApiProperty({ enum: ['referral_invite'] })
  object!: 'referral_invite';

  @ApiProperty({ pattern: '^refinv_[0-9a-f]{32}$', example: 'refinv_0c2e4a6b8d1f3e5a7c9b0d2f4a6c8e1b' })
  referralInviteId!: string;

  @ApiProperty({ example: 'ada@example.com', description: 'The email the link is locked to: trimmed and lower-cased.' })
  email!: string;

  @ApiProperty({
    example: 'https://sandbox.partner-finance.example/signup?invite=refinv_0c2e4a6b8d1f3e5a7c9b0d2f4a6c8e1b',
    description: 'The sign-up link: the sign-up page with `invite=<referralInviteId>`, which pre-fills and locks the email. Stable across renewals.',
  })
  url!: string;

  @ApiProperty({
    enum: REFERRAL_INVITE_STATUSES,
    enumName: 'ReferralInviteStatus',
    description: '`PENDING` until `expiresAt`, then `EXPIRED`; `ACCEPTED` once the customer signed up through it.',
  })
  status!: ReferralInviteStatus;

  @ApiProperty({ format: 'date-time', description: '7 days after issue or the latest renewal; after it the link no longer works.' })
  expiresAt!: string;

  @ApiProperty({ format: 'date-time', description: 'When the invite was first issued; renewals keep it.' })
  createdAt!: string;
}

/** POST /v1/referral-invites. */
@ApiSchema({ name: 'CreateReferralInviteRequest' })
export class CreateReferralInviteBody {
  @ApiProperty({ example: 'ada@example.com', maxLength: 254, description: 'The customer’s email; case and surrounding spaces are ignored.' })
  // class-validator reports the last-listed rule first: the type check goes last.
  @MaxLength(254, { message: 'must be at most 254 characters' })
  @Matches(EMAIL_SHAPE, { message: 'must be an email address' })
  @IsString({ message: 'must be an email address' })
  email!: string;
}

/** POST /v1/sandbox/referral-invites/{referralInviteId}/accept. */
@ApiSchema({ name: 'AcceptReferralInviteRequest' })
export class AcceptReferralInviteBody {
  @ApiProperty({ example: 'ada@example.com', maxLength: 254, description: 'Must be the email the invite is locked to; any other is 403 `forbidden`.' })
  @MaxLength(254, { message: 'must be at most 254 characters' })
  @Matches(EMAIL_SHAPE, { message: 'must be an email address' })
  @IsString({ message: 'must be an email address' })
  email!: string;

  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Ada Ltd', description: 'The new organization’s name; surrounding spaces are removed.' })
  @MaxLength(200, { message: 'must be at most 200 characters' })
  @Matches(/\S/, { message: 'must not be empty' })
  @IsString({ message: 'must be a string of 1–200 characters' })
  name!: string;
}

@ApiSchema({ name: 'ReferralSignUp', description: 'The organization created through the invite, and its first API key (shown only here).' })
export class ReferralSignUpDto {
  @ApiProperty({ type: OrganizationDto, description: 'A root organization, `PENDING` verification, whose `referrerOrganizationId` is the inviter.' })
  organization!: OrganizationDto;

  @ApiProperty({ pattern: '^sk_(test|live)_[0-9a-f]{64}$', description: 'The new organization’s API key. Stored only as a hash: keep it now.' })
  apiKey!: string;
}
