import { Body, Controller, Delete, Get, Param, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { DomainError, isId, type AuthorizationView, type PageView, type Principal } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { NoQueryDto } from '../http/no-query.dto';
import { CommandOrigin } from '../http/command-origin.decorator';
import { PageQueryDto } from '../lists/page-query.dto';
import { Paginated } from '../lists/paginated.decorator';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { REQUEST_ID_RESPONSE_HEADER } from '../openapi/response-headers';
import { AuthorizationDto, CreateAuthorizationBody } from './authorization.dto';

const AUTHORIZATION_ID_PARAM = { name: 'authorizationId', description: 'Authorization id, `loa_` + 32 hex.', example: 'loa_3e1d9c7b5a4f2e0d8c6b4a2f0e9d7c5b' };

/** A malformed id names no authorization; answering here spares the organization service a round trip. */
function assertAuthorizationId(authorizationId: string): void {
  if (!isId('authorization', authorizationId)) throw new DomainError('authorization_not_found', 'No authorization with this id was found.');
}

@ApiTags('Authorizations')
@Controller('v1/authorizations')
export class AuthorizationsController {
  constructor(private readonly bus: CommandBus) {}

  @Post()
  @ApiOperation({
    operationId: 'createAuthorization',
    summary: 'Sign an authorization (LOA) for another organization',
    description:
      'The caller, signing with its own API key, lets `granteeOrganizationId` act for it with `Service-On-Behalf-Of` on the endpoints that accept an LOA. ' +
      'The authorization is `ACTIVE` at once. While the grantee already holds an ACTIVE authorization from the caller, that one is returned with 200 instead of a second being created. ' +
      'An unknown grantee is 404 `organization_not_found`; the caller itself is 400 `invalid_request`.',
  })
  @ApiCreatedResponse({ description: 'The new ACTIVE authorization.', type: AuthorizationDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiOkResponse({ description: 'The grantee already held an ACTIVE authorization from the caller: that one.', type: AuthorizationDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('organization_not_found')
  async create(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Body() body: CreateAuthorizationBody,
    @Query() _query: NoQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuthorizationView> {
    const result = await this.bus.send(
      'organization',
      'authorizations.create',
      { grantorOrganizationId: principal.organizationId, granteeOrganizationId: body.granteeOrganizationId },
      origin,
    );
    if (!result.created) void reply.status(200);
    return result.authorization;
  }

  @Get()
  @ApiOperation({
    operationId: 'listAuthorizations',
    summary: 'List the authorizations the caller granted or received',
    description:
      'Both directions, ACTIVE and REVOKED, newest first. Paginated with `limit` (1–100, default 25) and the opaque `cursor`; continue while `X-Next-Cursor` is present.',
  })
  @Paginated(AuthorizationDto, 'AuthorizationList', 'One page of authorizations, newest first.')
  @ApiErrors()
  list(@CurrentPrincipal() principal: Principal, @CommandOrigin() origin: CommandOrigin, @Query() query: PageQueryDto): Promise<PageView<AuthorizationView>> {
    return this.bus.send('organization', 'authorizations.list', { organizationId: principal.organizationId, page: query.toPageRequest() }, origin);
  }

  @Get(':authorizationId')
  @ApiOperation({
    operationId: 'getAuthorization',
    summary: 'Retrieve an authorization',
    description: 'Either party may read it. For anyone else, and for an unknown or malformed id, the answer is 404 `authorization_not_found`.',
  })
  @ApiParam(AUTHORIZATION_ID_PARAM)
  @ApiOkResponse({ description: 'The authorization.', type: AuthorizationDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('authorization_not_found')
  get(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Param('authorizationId') authorizationId: string,
    @Query() _query: NoQueryDto,
  ): Promise<AuthorizationView> {
    assertAuthorizationId(authorizationId);
    return this.bus.send('organization', 'authorizations.get', { organizationId: principal.organizationId, authorizationId }, origin);
  }

  @Delete(':authorizationId')
  @ApiOperation({
    operationId: 'revokeAuthorization',
    summary: 'Revoke an authorization',
    description:
      'Either party may revoke it. The grantee loses access at once: its next request on behalf of the grantor is 403 `forbidden`. ' +
      'Revoking again answers the same REVOKED authorization, with its first `revokedAt`. For anyone else the answer is 404 `authorization_not_found`.',
  })
  @ApiParam(AUTHORIZATION_ID_PARAM)
  @ApiOkResponse({ description: 'The authorization, now REVOKED.', type: AuthorizationDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('authorization_not_found')
  revoke(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Param('authorizationId') authorizationId: string,
    @Query() _query: NoQueryDto,
  ): Promise<AuthorizationView> {
    assertAuthorizationId(authorizationId);
    return this.bus.send('organization', 'authorizations.revoke', { organizationId: principal.organizationId, authorizationId }, origin);
  }
}
