import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FeesView } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { ActingOrganizationId } from '../auth/acting-organization.decorator';
import { OnBehalfOf } from '../auth/on-behalf-of.decorator';
import { CommandOrigin } from '../http/command-origin.decorator';
import { NoQueryDto } from '../http/no-query.dto';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { REQUEST_ID_RESPONSE_HEADER } from '../openapi/response-headers';
import { FeesDto } from './fees.dto';

@ApiTags('Fees')
@Controller('v1/fees')
export class FeesController {
  constructor(private readonly bus: CommandBus) {}

  @Get()
  @ApiOperation({
    operationId: 'getFees',
    summary: 'The organization’s effective pricing',
    description:
      'Spread (from the pricing tier in force, or the platform default of 100 bps), the referrer share, and the payout fee per rail and asset ' +
      '(the schedule payouts are charged by). With `Service-On-Behalf-Of`, a broker reads its client’s pricing. Takes no query parameters.',
  })
  @ApiOkResponse({ description: 'The effective pricing.', type: FeesDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @OnBehalfOf('creator_or_loa')
  @ApiErrors()
  async get(@ActingOrganizationId() organizationId: string, @CommandOrigin() origin: CommandOrigin, @Query() _query: NoQueryDto): Promise<FeesView> {
    // The spread from the service that prices quotes, so the two never disagree; the payout fees from the ledger, which charges them.
    const [pricing, payoutFees] = await Promise.all([
      this.bus.send('quote', 'pricing.get', { organizationId }, origin),
      this.bus.send('ledger', 'payout-fees.list', {}, origin),
    ]);
    return { object: 'fees', organizationId, ...pricing, payoutFees };
  }
}
