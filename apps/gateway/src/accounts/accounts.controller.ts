import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { DomainError, isId, type AccountView, type Principal } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { NoQueryDto } from '../http/no-query.dto';
import { RequestId } from '../http/request-id.decorator';
import { pageResponse, type ListEnvelope } from '../lists/list-envelope';
import { PageQueryDto } from '../lists/page-query.dto';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { LIST_RESPONSE_HEADERS, REQUEST_ID_RESPONSE_HEADER } from '../openapi/response-headers';
import { AccountDto, AccountListDto } from './account.dto';

@ApiTags('Accounts')
@ApiBearerAuth()
@Controller('v1/accounts')
export class AccountsController {
  constructor(private readonly bus: CommandBus) {}

  @Get()
  @ApiOperation({
    operationId: 'listAccounts',
    summary: 'List the organization’s accounts',
    description:
      'Newest first. Paginated with `limit` (1–100, default 25) and the opaque `cursor`; continue while `X-Next-Cursor` is present. ' +
      'Unknown query parameters, a `limit` outside 1–100 and a cursor that is altered or from another list are 400 `invalid_request`. ' +
      '`Service-On-Behalf-Of` is not supported yet on this route and is answered 400 `invalid_request`.',
  })
  @ApiOkResponse({ description: 'One page of accounts.', type: AccountListDto, headers: LIST_RESPONSE_HEADERS })
  @ApiErrors()
  async list(
    @CurrentPrincipal() principal: Principal,
    @RequestId() requestId: string,
    @Query() query: PageQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ListEnvelope<AccountView>> {
    const page = await this.bus.send(
      'ledger',
      'accounts.list',
      { organizationId: principal.organizationId, page: query.toPageRequest() },
      { requestId },
    );
    return pageResponse(reply, page);
  }

  @Get(':accountId')
  @ApiOperation({
    operationId: 'getAccount',
    summary: 'Retrieve one account with its balances',
    description:
      'Balances are read from the ledger in real time. An account of another organization, an unknown id and a malformed id all ' +
      'answer 404 `account_not_found`, so ids of other organizations cannot be probed. Takes no query parameters. ' +
      '`Service-On-Behalf-Of` is not supported yet on this route and is answered 400 `invalid_request`.',
  })
  @ApiParam({ name: 'accountId', description: 'Account id, `acct_` + 32 hex.', example: 'acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c' })
  @ApiOkResponse({ description: 'The account.', type: AccountDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('account_not_found')
  async get(
    @CurrentPrincipal() principal: Principal,
    @RequestId() requestId: string,
    @Param('accountId') accountId: string,
    @Query() _query: NoQueryDto,
  ): Promise<AccountView> {
    // A malformed id names no account; answering here spares the ledger a round trip.
    if (!isId('account', accountId)) throw new DomainError('account_not_found', 'No account with this id was found.');
    return this.bus.send('ledger', 'accounts.get', { organizationId: principal.organizationId, accountId }, { requestId });
  }
}
