import { Controller, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { BeneficiaryView, Principal } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { BENEFICIARY_PARAM, beneficiaryIdOf } from '../beneficiaries/beneficiary-id.param';
import { BENEFICIARY_LIFECYCLE, BeneficiaryDto } from '../beneficiaries/beneficiary.dto';
import { CommandOrigin } from '../http/command-origin.decorator';
import { NoQueryDto } from '../http/no-query.dto';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { REQUEST_ID_RESPONSE_HEADER } from '../openapi/response-headers';

const SANDBOX_NOTE = 'Sandbox only: in production every `/v1/sandbox/...` route answers 404 `not_found` like an unknown route.';
const NOT_FOUND_NOTE = 'Another organization’s beneficiary, an unknown or malformed id is 404 `beneficiary_not_found`.';

/**
 * Sandbox simulations on beneficiaries (api-decisions §7): what the platform's compliance
 * would do, so a partner can rehearse a payout to a blocked payee. Never registered in
 * production (sandbox-routes.ts).
 */
@ApiTags('Sandbox')
@Controller('v1/sandbox/beneficiaries')
export class SandboxBeneficiariesController {
  constructor(private readonly bus: CommandBus) {}

  @Post(':beneficiaryId/block')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'blockSandboxBeneficiary',
    summary: 'Sandbox: block a beneficiary',
    description:
      'Moves an ACTIVE or INACTIVE beneficiary to BLOCKED: it cannot be paid (payouts answer `beneficiary_blocked`), changed or archived until unblocked. ' +
      'Blocking a BLOCKED one is 409 `beneficiary_blocked`, an ARCHIVED one 409 `beneficiary_already_archived`. ' +
      `${NOT_FOUND_NOTE} ${SANDBOX_NOTE}\n\n${BENEFICIARY_LIFECYCLE}`,
  })
  @ApiParam(BENEFICIARY_PARAM)
  @ApiOkResponse({ description: 'The beneficiary, BLOCKED.', type: BeneficiaryDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('beneficiary_not_found', 'beneficiary_blocked', 'beneficiary_already_archived')
  block(@CurrentPrincipal() principal: Principal, @CommandOrigin() origin: CommandOrigin, @Param('beneficiaryId') beneficiaryId: string, @Query() _query: NoQueryDto): Promise<BeneficiaryView> {
    return this.bus.send('beneficiary', 'beneficiaries.block', { organizationId: principal.organizationId, beneficiaryId: beneficiaryIdOf(beneficiaryId) }, origin);
  }

  @Post(':beneficiaryId/unblock')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'unblockSandboxBeneficiary',
    summary: 'Sandbox: unblock a beneficiary',
    description:
      'Moves a BLOCKED beneficiary back to ACTIVE. One that is not blocked is 400 `invalid_request` (`status: … not BLOCKED`; the error catalog has no ' +
      '`beneficiary_not_blocked`), an ARCHIVED one 409 `beneficiary_already_archived`. ' +
      `${NOT_FOUND_NOTE} ${SANDBOX_NOTE}\n\n${BENEFICIARY_LIFECYCLE}`,
  })
  @ApiParam(BENEFICIARY_PARAM)
  @ApiOkResponse({ description: 'The beneficiary, ACTIVE.', type: BeneficiaryDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('beneficiary_not_found', 'beneficiary_already_archived')
  unblock(@CurrentPrincipal() principal: Principal, @CommandOrigin() origin: CommandOrigin, @Param('beneficiaryId') beneficiaryId: string, @Query() _query: NoQueryDto): Promise<BeneficiaryView> {
    return this.bus.send('beneficiary', 'beneficiaries.unblock', { organizationId: principal.organizationId, beneficiaryId: beneficiaryIdOf(beneficiaryId) }, origin);
  }
}
