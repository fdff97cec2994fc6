import { Body, Controller, Get, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { PageView, Principal, ReferralInviteView } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { NoQueryDto } from '../http/no-query.dto';
import { CommandOrigin } from '../http/command-origin.decorator';
import { PageQueryDto } from '../lists/page-query.dto';
import { Paginated } from '../lists/paginated.decorator';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { REQUEST_ID_RESPONSE_HEADER } from '../openapi/response-headers';
import { SpecListedCodes } from '../openapi/spec-listed-codes.decorator';
import { RequestErrorCode } from '../validation/request-error-code.decorator';
import { CreateReferralInviteBody, ReferralInviteDto } from './referral-invite.dto';

@ApiTags('Referral invites')
@Controller('v1/referral-invites')
export class ReferralInvitesController {
  constructor(private readonly bus: CommandBus) {}

  @Post()
  @RequestErrorCode('validation_error')
  @ApiOperation({
    operationId: 'createReferralInvite',
    summary: 'Issue a sign-up link for one customer',
    description:
      'The link opens sign-up with the email pre-filled and locked; a sign-up with any other email is refused, and the customer still confirms the address by email. ' +
      'After sign-up the customer’s organization has the caller as its `referrerOrganizationId`. The email is trimmed and lower-cased. ' +
      'Calling again for the same email returns the same invite (same `referralInviteId` and `url`) with `expiresAt` renewed to 7 days from now, with 200 instead of 201. ' +
      'Referrals are switched on for the caller on its first call. Once an invite for the email was accepted the answer is 409 `referral_invite_already_accepted`. ' +
      'An organization whose referrals the operator has suspended (for abuse or a compliance hold) is not enabled for this action: 403 `forbidden`, ' +
      'for new invites and renewals alike, until the operator resumes them; links already issued keep working until they expire.',
  })
  @ApiCreatedResponse({ description: 'A new invite.', type: ReferralInviteDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiOkResponse({ description: 'The caller’s existing invite for this email, with a renewed `expiresAt`.', type: ReferralInviteDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('forbidden', 'referral_invite_already_accepted')
  @SpecListedCodes({
    quote_expired: {
      never:
        'this endpoint involves no quote. An invite past its `expiresAt` is not an error either: asking again for the same email renews it (same id and link, 200), and the sandbox sign-up answers an expired link 404 `not_found`.',
    },
  })
  async create(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Body() body: CreateReferralInviteBody,
    @Query() _query: NoQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ReferralInviteView> {
    const result = await this.bus.send(
      'organization',
      'referral-invites.create',
      { referrerOrganizationId: principal.organizationId, email: body.email },
      origin,
    );
    if (!result.created) void reply.status(200);
    return result.referralInvite;
  }

  @Get()
  @RequestErrorCode('validation_error')
  @ApiOperation({
    operationId: 'listReferralInvites',
    summary: 'List the caller’s referral invites',
    description:
      'Every invite the caller issued, with `status` `PENDING`, `ACCEPTED` or `EXPIRED`, newest first (by first issue). ' +
      'Paginated with `limit` (1–100, default 25) and the opaque `cursor`; continue while `X-Next-Cursor` is present.',
  })
  @Paginated(ReferralInviteDto, 'ReferralInviteList', 'One page of referral invites, newest first.')
  @ApiErrors()
  list(@CurrentPrincipal() principal: Principal, @CommandOrigin() origin: CommandOrigin, @Query() query: PageQueryDto): Promise<PageView<ReferralInviteView>> {
    return this.bus.send('organization', 'referral-invites.list', { referrerOrganizationId: principal.organizationId, page: query.toPageRequest() }, origin);
  }
}
