import { Body, Controller, Get, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Principal, SubOrgTierAssignmentView, SubOrgTierView } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { ActingOrganizationId } from '../auth/acting-organization.decorator';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { OnBehalfOf } from '../auth/on-behalf-of.decorator';
import { NoQueryDto } from '../http/no-query.dto';
import { CommandOrigin } from '../http/command-origin.decorator';
import { fullList, type ListEnvelope } from '../lists/list-envelope';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { REQUEST_ID_RESPONSE_HEADER } from '../openapi/response-headers';
import { SpecListedCodes } from '../openapi/spec-listed-codes.decorator';
import { RequestErrorCode } from '../validation/request-error-code.decorator';
import { SetSubOrgTierBody, SubOrgTierAssignmentDto, SubOrgTierListDto } from './sub-org-tier.dto';

const AVAILABILITY =
  'By default every broker is offered every platform tier; the operator may restrict a broker to some of them (`SUB_ORG_TIER_OFFERS`). ' +
  'A tier not offered to the caller is not listed, and assigning it is 403 `sub_org_tier_not_available`.';

@ApiTags('Sub-org tiers')
@Controller('v1')
export class SubOrgTiersController {
  constructor(private readonly bus: CommandBus) {}

  @Get('sub-org-tiers')
  @ApiOperation({
    operationId: 'listSubOrgTiers',
    summary: 'List the pricing tiers the caller can assign to its clients',
    description:
      `Returned in full, in platform order (never paginated). Takes no query parameters. ${AVAILABILITY} ` +
      'With `Service-On-Behalf-Of` (the sub-org tier endpoints support it) the list is the tiers the caller can assign to that client, ' +
      'which only its creator may do: the same tiers, after the same permission check as the PUT.',
  })
  @ApiOkResponse({ description: 'The tiers offered to the caller.', type: SubOrgTierListDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @OnBehalfOf('creator')
  @RequestErrorCode('validation_error')
  @ApiErrors()
  async list(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Query() _query: NoQueryDto,
  ): Promise<ListEnvelope<SubOrgTierView>> {
    const tiers = await this.bus.send('organization', 'sub-org-tiers.list', { callerOrganizationId: principal.organizationId }, origin);
    return fullList(tiers);
  }

  @Put('organizations/sub-org-tier')
  @ApiOperation({
    operationId: 'setSubOrgTier',
    summary: 'Put a client organization on a tier, or remove its tier',
    description:
      'Names the client with `Service-On-Behalf-Of` (required). Only the organization that created the client via POST /v1/organizations may set its tier; ' +
      'an authorization (LOA) is not enough, so a customer cannot reprice itself. A client can be priced from creation on, whatever its verification status. ' +
      'The tier prices the client’s quotes (their spread, and the commission of the trades executed from them) and shows in GET /v1/fees ' +
      'from at most one second after this answer: pricing learns of it asynchronously, so a quote made in that moment is priced by the tier before. ' +
      'Quotes already made keep their spread; trades already executed are unaffected. ' +
      `An unknown key is 404 \`sub_org_tier_not_found\`. ${AVAILABILITY}`,
  })
  @ApiOkResponse({ description: 'The client’s tier after the change.', type: SubOrgTierAssignmentDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @OnBehalfOf('creator', { required: true })
  @RequestErrorCode('validation_error')
  @ApiErrors('sub_org_tier_not_found', 'sub_org_tier_not_available')
  @SpecListedCodes({
    not_found: {
      answeredAs: ['organization_not_found', 'sub_org_tier_not_found'],
      why: 'the two things this endpoint looks up are the client named in `Service-On-Behalf-Of` and the tier key, and each has its specific 404 code.',
    },
  })
  set(
    @CurrentPrincipal() principal: Principal,
    @ActingOrganizationId() organizationId: string,
    @CommandOrigin() origin: CommandOrigin,
    @Body() body: SetSubOrgTierBody,
    @Query() _query: NoQueryDto,
  ): Promise<SubOrgTierAssignmentView> {
    return this.bus.send(
      'organization',
      'sub-org-tiers.assign',
      { callerOrganizationId: principal.organizationId, organizationId, tierKey: body.subOrgTierKey ?? null },
      origin,
    );
  }
}
