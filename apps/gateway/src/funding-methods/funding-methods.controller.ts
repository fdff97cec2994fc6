import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { DomainError, isId, type FundingMethodView, type Principal } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { FundingMethodDto } from '../accounts/account.dto';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { NoQueryDto } from '../http/no-query.dto';
import { CommandOrigin } from '../http/command-origin.decorator';
import { fullList, type ListEnvelope } from '../lists/list-envelope';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { REQUEST_ID_RESPONSE_HEADER } from '../openapi/response-headers';
import { FundingMethodListDto, ProvisionFundingMethodsBody } from './funding-method.dto';

@ApiTags('Funding methods')
@Controller('v1/funding-methods')
export class FundingMethodsController {
  constructor(private readonly bus: CommandBus) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'provisionFundingMethods',
    summary: 'Enable an asset and get its receiving methods',
    description:
      'The first call for an asset turns it `ENABLED` for the organization (GET /v1/assets) and provisions its receiving methods on the account; ' +
      'every later call provisions nothing new and answers the same methods, so the answer is always 200 with the full list. ' +
      'Sandbox crypto assets get one deposit address per sandbox chain carrying them, in that chain’s own format (EVM chains: EIP-55 checksummed ' +
      '`0x` addresses; Solana: base58; Tron: base58check `T…`): USDC and USDT on all six chains, ETH on the four EVM chains, BTC on none (the list ' +
      'is empty, the asset is still enabled). Fiat assets get one bank account: USD a routing and account number, EUR an IBAN and BIC, each with a ' +
      'unique `reference` to quote on the transfer. The account’s `fundingMethods` lists the same objects.\n\n' +
      'Orchestration: the gateway asks the ledger to provision (it checks that the account belongs to the organization and serialises concurrent ' +
      'first calls on the account), then the organization service to enable the asset. Both steps are idempotent, so a retry after a failure ' +
      '(or a replay of the same `Idempotency-Key`) converges on the same methods and status; and the ledger records the provisioning as an event ' +
      'from which the organization service enables the asset too, so the asset ends up `ENABLED` even when the second step failed and nobody retries.',
  })
  @ApiOkResponse({ description: 'The asset’s receiving methods on the account.', type: FundingMethodListDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('not_found', 'account_not_found')
  async provision(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Body() body: ProvisionFundingMethodsBody,
    @Query() _query: NoQueryDto,
  ): Promise<ListEnvelope<FundingMethodView>> {
    const organizationId = principal.organizationId;
    // Ledger first: it refuses an unknown asset or a foreign account before anything is enabled.
    const methods = await this.bus.send(
      'ledger',
      'funding-methods.provision',
      { organizationId, accountId: body.accountId ?? null, asset: body.asset },
      origin,
    );
    await this.bus.send('organization', 'assets.enable', { organizationId, asset: body.asset }, origin);
    return fullList(methods);
  }

  @Get(':fundingMethodId')
  @ApiOperation({
    operationId: 'getFundingMethod',
    summary: 'Retrieve one funding method',
    description:
      'A funding method on one of the organization’s accounts. A method of another organization, an unknown id and a malformed id all answer ' +
      '404 `funding_method_not_found`. Takes no query parameters.',
  })
  @ApiParam({ name: 'fundingMethodId', description: 'Funding method id, `fm_` + 32 hex.', example: 'fm_3d5f7a9c1e2b4d6f8a0c2e4b6d8f0a1c' })
  @ApiOkResponse({ description: 'The funding method.', type: FundingMethodDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('funding_method_not_found')
  async get(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Param('fundingMethodId') fundingMethodId: string,
    @Query() _query: NoQueryDto,
  ): Promise<FundingMethodView> {
    // A malformed id names no method; answering here spares the ledger a round trip.
    if (!isId('fundingMethod', fundingMethodId)) throw new DomainError('funding_method_not_found', 'No funding method with this id was found.');
    return this.bus.send('ledger', 'funding-methods.get', { organizationId: principal.organizationId, fundingMethodId }, origin);
  }
}
