import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AssetView, Principal } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { NoQueryDto } from '../http/no-query.dto';
import { RequestId } from '../http/request-id.decorator';
import { fullList, type ListEnvelope } from '../lists/list-envelope';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { REQUEST_ID_RESPONSE_HEADER } from '../openapi/response-headers';
import { AssetListDto } from './asset.dto';

@ApiTags('Assets')
@ApiBearerAuth()
@Controller('v1/assets')
export class AssetsController {
  constructor(private readonly bus: CommandBus) {}

  @Get()
  @ApiOperation({
    operationId: 'listAssets',
    summary: 'List the assets the organization can receive',
    description:
      'Returns the whole catalog in full (never paginated): each asset `ENABLED` once granted to the organization, else `AVAILABLE`. ' +
      'Takes no query parameters; an unknown one is 400 `invalid_request`. ' +
      '`Service-On-Behalf-Of` is not supported yet on this route and is answered 400 `invalid_request`.',
  })
  @ApiOkResponse({ description: 'The full asset list.', type: AssetListDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors()
  async list(
    @CurrentPrincipal() principal: Principal,
    @RequestId() requestId: string,
    @Query() _query: NoQueryDto,
  ): Promise<ListEnvelope<AssetView>> {
    const assets = await this.bus.send('organization', 'assets.list', { organizationId: principal.organizationId }, { requestId });
    return fullList(assets);
  }
}
