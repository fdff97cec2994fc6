import { Body, Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Principal, ServicenetView } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { CommandOrigin } from '../http/command-origin.decorator';
import { NoQueryDto } from '../http/no-query.dto';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { REQUEST_ID_RESPONSE_HEADER } from '../openapi/response-headers';
import { ClaimServicenetHandleBody, ServicenetDto } from './servicenet.dto';

const WHICH_ROUTES_NEED_IT =
  'Which routes need servicenet enabled (403 `servicenet_not_enabled` otherwise): `PUT /v1/servicenet/handle`, ' +
  '`POST /v1/beneficiaries/servicenet` and `POST /v1/transfers` (for the sender, and for the receiving organization at the time of the transfer). ' +
  '`GET /v1/servicenet`, `POST /v1/servicenet/enable` and `POST /v1/servicenet/disable` always answer.';

/** The organization's servicenet switch and handle, kept by the organization service. */
@ApiTags('Servicenet')
@Controller('v1/servicenet')
export class ServicenetController {
  constructor(private readonly bus: CommandBus) {}

  @Get()
  @ApiOperation({
    operationId: 'getServicenet',
    summary: 'Retrieve the organization’s servicenet state',
    description: `Whether servicenet (internal transfers between organizations) is enabled, and the claimed handle. Answers whether enabled or not. ${WHICH_ROUTES_NEED_IT} Takes no query parameters.`,
  })
  @ApiOkResponse({ description: 'The servicenet state.', type: ServicenetDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors()
  get(@CurrentPrincipal() principal: Principal, @CommandOrigin() origin: CommandOrigin, @Query() _query: NoQueryDto): Promise<ServicenetView> {
    return this.bus.send('organization', 'servicenet.get', { organizationId: principal.organizationId }, origin);
  }

  @Post('enable')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'enableServicenet',
    summary: 'Enable servicenet',
    description:
      'Switches servicenet on: the organization can then claim a handle, add servicenet beneficiaries, send transfers and receive them. Idempotent (a ' +
      `second call answers the same state); a handle claimed before a disable is kept. ${WHICH_ROUTES_NEED_IT} Takes no body and no query parameters.`,
  })
  @ApiOkResponse({ description: 'The servicenet state, enabled.', type: ServicenetDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors()
  enable(@CurrentPrincipal() principal: Principal, @CommandOrigin() origin: CommandOrigin, @Query() _query: NoQueryDto): Promise<ServicenetView> {
    return this.bus.send('organization', 'servicenet.enable', { organizationId: principal.organizationId }, origin);
  }

  @Post('disable')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'disableServicenet',
    summary: 'Disable servicenet',
    description:
      'Switches servicenet off. From then on transfers from the organization, and transfers to it (from beneficiaries other organizations created ' +
      'before), answer 403 `servicenet_not_enabled`; its handle is no longer found by `POST /v1/beneficiaries/servicenet` (404 ' +
      '`servicenet_handle_not_found`) but stays reserved for it, and comes back with `POST /v1/servicenet/enable`. Idempotent. Transfers already made ' +
      `are unaffected. ${WHICH_ROUTES_NEED_IT} Takes no body and no query parameters.`,
  })
  @ApiOkResponse({ description: 'The servicenet state, disabled.', type: ServicenetDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors()
  disable(@CurrentPrincipal() principal: Principal, @CommandOrigin() origin: CommandOrigin, @Query() _query: NoQueryDto): Promise<ServicenetView> {
    return this.bus.send('organization', 'servicenet.disable', { organizationId: principal.organizationId }, origin);
  }

  @Put('handle')
  @ApiOperation({
    operationId: 'claimServicenetHandle',
    summary: 'Claim or change the servicenet handle',
    description:
      'Claims `handle` for the organization, or changes its handle (the old one is released at once). Handles are 3 to 32 of letters, digits, `_` ' +
      'and `-`, unique without regard to case, and answered lower-cased. Claiming the handle one already holds changes nothing. Servicenet ' +
      'beneficiaries other organizations created keep paying the organization after a change.\n\n' +
      'Refusals, each changing nothing: servicenet not enabled, 403 `servicenet_not_enabled`; a handle another organization holds (in any case, ' +
      'also one reserved by an organization that disabled servicenet), 409 `servicenet_handle_taken`; a missing or malformed `handle`, 400 ' +
      '`invalid_request`. Of two organizations claiming one handle at once, exactly one gets it.',
  })
  @ApiOkResponse({ description: 'The servicenet state with the handle.', type: ServicenetDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('servicenet_not_enabled', 'servicenet_handle_taken')
  claimHandle(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Body() body: ClaimServicenetHandleBody,
    @Query() _query: NoQueryDto,
  ): Promise<ServicenetView> {
    return this.bus.send('organization', 'servicenet-handles.claim', { organizationId: principal.organizationId, handle: body.handle }, origin);
  }
}
