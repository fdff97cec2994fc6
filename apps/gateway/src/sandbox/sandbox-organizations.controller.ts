import { Body, Controller, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { DomainError, isId, type OrganizationView, type Principal } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { NoQueryDto } from '../http/no-query.dto';
import { CommandOrigin } from '../http/command-origin.decorator';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { REQUEST_ID_RESPONSE_HEADER } from '../openapi/response-headers';
import { OrganizationDto } from '../organizations/organization.dto';
import { SetVerificationBody } from './verification.dto';

/** Sandbox simulations on organizations; never registered in production (sandbox-routes.ts). */
@ApiTags('Sandbox')
@Controller('v1/sandbox/organizations')
export class SandboxOrganizationsController {
  constructor(private readonly bus: CommandBus) {}

  @Post(':organizationId/verification')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'setSandboxVerification',
    summary: 'Sandbox: set an organization’s verification status',
    description:
      'Simulates the outcome of KYC/KYB for the caller itself or one of its clients. When the status changes, `organization.verification.updated` is emitted ' +
      '(to the organization and, for a client, to its creator), with `reason` set for `ON_HOLD` and `RESUBMISSION_REQUIRED` and null otherwise. ' +
      'Setting the current status again changes nothing and emits nothing. Any other organization, or an unknown id, is 404 `organization_not_found`. ' +
      'Sandbox only: in production every `/v1/sandbox/...` route answers 404 `not_found` like an unknown route.',
  })
  @ApiParam({ name: 'organizationId', description: 'Organization id, `org_` + 32 hex.', example: 'org_5b0e7d1c9a3f4e2b8c6d0a1f3e5b7c9d' })
  @ApiOkResponse({ description: 'The organization with its verification status.', type: OrganizationDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('organization_not_found')
  setVerification(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Param('organizationId') organizationId: string,
    @Body() body: SetVerificationBody,
    @Query() _query: NoQueryDto,
  ): Promise<OrganizationView> {
    if (!isId('organization', organizationId)) throw new DomainError('organization_not_found', 'No organization with this id was found.');
    return this.bus.send(
      'organization',
      'verification-status.set',
      { callerOrganizationId: principal.organizationId, organizationId, status: body.status, reason: body.reason ?? null },
      origin,
    );
  }
}
