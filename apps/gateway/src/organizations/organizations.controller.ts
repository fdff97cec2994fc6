import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { DomainError, isId, type OrganizationView, type PageView, type Principal } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { NoQueryDto } from '../http/no-query.dto';
import { CommandOrigin } from '../http/command-origin.decorator';
import { PageQueryDto } from '../lists/page-query.dto';
import { Paginated } from '../lists/paginated.decorator';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { REQUEST_ID_RESPONSE_HEADER } from '../openapi/response-headers';
import { CreateOrganizationBody, OrganizationDto } from './organization.dto';

@ApiTags('Organizations')
@Controller('v1/organizations')
export class OrganizationsController {
  constructor(private readonly bus: CommandBus) {}

  @Post()
  @ApiOperation({
    operationId: 'createOrganization',
    summary: 'Create a client organization',
    description:
      'The caller becomes the client’s creator (`parentOrganizationId`): it may act for the client with `Service-On-Behalf-Of` and set its pricing tier. ' +
      'The client starts `PENDING` verification, with every catalog asset `AVAILABLE`, and its primary account (`primaryAccountId`) is open when this answers: ' +
      'both ids work in the very next request. When the account cannot be opened in time the answer is 503 and the request can be retried with the same ' +
      '`Idempotency-Key`; the account opens as soon as the service is back. ' +
      'The client has no API key of its own until one is issued to it.',
  })
  @ApiCreatedResponse({ description: 'The new client organization.', type: OrganizationDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors()
  create(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Body() body: CreateOrganizationBody,
    @Query() _query: NoQueryDto,
  ): Promise<OrganizationView> {
    return this.bus.send(
      'organization',
      'organizations.create',
      {
        callerOrganizationId: principal.organizationId,
        name: body.name,
        entityType: body.entityType,
        country: body.country,
        email: body.email ?? null,
      },
      origin,
    );
  }

  @Get()
  @ApiOperation({
    operationId: 'listOrganizations',
    summary: 'List the caller’s client organizations',
    description:
      'The organizations the caller created, newest first. Paginated with `limit` (1–100, default 25) and the opaque `cursor`; continue while `X-Next-Cursor` is present.',
  })
  @Paginated(OrganizationDto, 'OrganizationList', 'One page of client organizations, newest first.')
  @ApiErrors()
  list(@CurrentPrincipal() principal: Principal, @CommandOrigin() origin: CommandOrigin, @Query() query: PageQueryDto): Promise<PageView<OrganizationView>> {
    return this.bus.send(
      'organization',
      'organizations.list',
      { callerOrganizationId: principal.organizationId, page: query.toPageRequest() },
      origin,
    );
  }

  @Get(':organizationId')
  @ApiOperation({
    operationId: 'getOrganization',
    summary: 'Retrieve the caller or one of its clients',
    description:
      'Any other organization, an unknown id and a malformed id all answer 404 `organization_not_found`, so ids of other organizations cannot be probed.',
  })
  @ApiParam({ name: 'organizationId', description: 'Organization id, `org_` + 32 hex.', example: 'org_5b0e7d1c9a3f4e2b8c6d0a1f3e5b7c9d' })
  @ApiOkResponse({ description: 'The organization.', type: OrganizationDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('organization_not_found')
  get(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Param('organizationId') organizationId: string,
    @Query() _query: NoQueryDto,
  ): Promise<OrganizationView> {
    if (!isId('organization', organizationId)) throw new DomainError('organization_not_found', 'No organization with this id was found.');
    return this.bus.send('organization', 'organizations.get', { callerOrganizationId: principal.organizationId, organizationId }, origin);
  }
}
