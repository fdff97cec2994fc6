import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AssetView } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { ActingOrganizationId } from '../auth/acting-organization.decorator';
import { OnBehalfOf } from '../auth/on-behalf-of.decorator';
import { NoQueryDto } from '../http/no-query.dto';
import { CommandOrigin } from '../http/command-origin.decorator';
import { fullList, type ListEnvelope } from '../lists/list-envelope';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { REQUEST_ID_RESPONSE_HEADER } from '../openapi/response-headers';
import { SpecListedCodes } from '../openapi/spec-listed-codes.decorator';
import { AssetListDto } from './asset.dto';

@ApiTags('Assets')
@Controller('v1/assets')
export class AssetsController {
  constructor(private readonly bus: CommandBus) {}

  @Get()
  @ApiOperation({
    operationId: 'listAssets',
    summary: 'List the assets the organization can receive',
    description:
      'Returns the whole catalog in full (never paginated): each asset `ENABLED` once granted to the organization, else `AVAILABLE`. ' +
      'Takes no query parameters; an unknown one is 400 `invalid_request`. With `Service-On-Behalf-Of` the list is the client’s.',
  })
  @ApiOkResponse({ description: 'The full asset list.', type: AssetListDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @OnBehalfOf('creator_or_loa')
  @ApiErrors()
  @SpecListedCodes({
    not_found: {
      answeredAs: ['organization_not_found'],
      why: 'the one thing this endpoint looks up is the client named in `Service-On-Behalf-Of`, and an unknown one has its specific 404 code.',
    },
  })
  async list(
    @ActingOrganizationId() organizationId: string,
    @CommandOrigin() origin: CommandOrigin,
    @Query() _query: NoQueryDto,
  ): Promise<ListEnvelope<AssetView>> {
    const assets = await this.bus.send('organization', 'assets.list', { organizationId }, origin);
    return fullList(assets);
  }
}
