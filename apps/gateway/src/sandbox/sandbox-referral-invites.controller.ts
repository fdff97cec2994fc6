import { Body, Controller, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { DomainError, isId, type OrganizationView, type Principal } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { NoQueryDto } from '../http/no-query.dto';
import { CommandOrigin } from '../http/command-origin.decorator';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { REQUEST_ID_RESPONSE_HEADER } from '../openapi/response-headers';
import { AcceptReferralInviteBody, ReferralSignUpDto } from '../referral-invites/referral-invite.dto';

/** Sandbox simulation of a customer signing up through a referral link; never registered in production. */
@ApiTags('Sandbox')
@Controller('v1/sandbox/referral-invites')
export class SandboxReferralInvitesController {
  constructor(private readonly bus: CommandBus) {}

  @Post(':referralInviteId/accept')
  @ApiOperation({
    operationId: 'acceptSandboxReferralInvite',
    summary: 'Sandbox: sign up through a referral invite',
    description:
      'Called with the inviter’s key to simulate its customer’s sign-up. Creates a root organization, `PENDING` verification, whose `referrerOrganizationId` is the inviter, ' +
      'with its own primary account, open when this answers so the new key can use it in the very next request, and API key, returned here once. ' +
      'Another email than the invite’s is 403 `forbidden`; an expired, unknown or another organization’s invite is 404 `not_found`; a second acceptance is 409 `referral_invite_already_accepted`. ' +
      'Sandbox only: in production every `/v1/sandbox/...` route answers 404 `not_found` like an unknown route.',
  })
  @ApiParam({ name: 'referralInviteId', description: 'Referral invite id, `refinv_` + 32 hex.', example: 'refinv_0c2e4a6b8d1f3e5a7c9b0d2f4a6c8e1b' })
  @ApiCreatedResponse({ description: 'The new organization and its API key.', type: ReferralSignUpDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('forbidden', 'not_found', 'referral_invite_already_accepted')
  accept(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Param('referralInviteId') referralInviteId: string,
    @Body() body: AcceptReferralInviteBody,
    @Query() _query: NoQueryDto,
  ): Promise<{ organization: OrganizationView; apiKey: string }> {
    if (!isId('referralInvite', referralInviteId)) throw new DomainError('not_found', 'No pending referral invite with this id was found.');
    return this.bus.send(
      'organization',
      'referral-invites.accept',
      { referrerOrganizationId: principal.organizationId, referralInviteId, email: body.email, name: body.name },
      origin,
    );
  }
}
