import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { DomainError, isId, type AccountView, type PageView, type Principal } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { NoQueryDto } from '../http/no-query.dto';
import { CommandOrigin } from '../http/command-origin.decorator';
import { PageQueryDto } from '../lists/page-query.dto';
import { Paginated } from '../lists/paginated.decorator';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { REQUEST_ID_RESPONSE_HEADER } from '../openapi/response-headers';
import { SpecListedCodes } from '../openapi/spec-listed-codes.decorator';
import { AccountDto } from './account.dto';

@ApiTags('Accounts')
@Controller('v1/accounts')
export class AccountsController {
  constructor(private readonly bus: CommandBus) {}

  @Get()
  @ApiOperation({
    operationId: 'listAccounts',
    summary: 'List the organization’s accounts',
    description:
      'Newest first. Paginated with `limit` (1–100, default 25) and the opaque `cursor`; continue while `X-Next-Cursor` is present. ' +
      'Unknown query parameters, a `limit` outside 1–100 and a cursor that is altered or from another list are 400 `invalid_request`.',
  })
  @Paginated(AccountDto, 'AccountList', 'One page of accounts, newest first.')
  @ApiErrors()
  list(@CurrentPrincipal() principal: Principal, @CommandOrigin() origin: CommandOrigin, @Query() query: PageQueryDto): Promise<PageView<AccountView>> {
    return this.bus.send('ledger', 'accounts.list', { organizationId: principal.organizationId, page: query.toPageRequest() }, origin);
  }

  @Get(':accountId')
  @ApiOperation({
    operationId: 'getAccount',
    summary: 'Retrieve one account with its balances',
    description:
      'Balances are read from the ledger in real time. An account of another organization, an unknown id and a malformed id all ' +
      'answer 404 `account_not_found`, so ids of other organizations cannot be probed. Takes no query parameters.',
  })
  @ApiParam({ name: 'accountId', description: 'Account id, `acct_` + 32 hex.', example: 'acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c' })
  @ApiOkResponse({ description: 'The account.', type: AccountDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('account_not_found')
  @SpecListedCodes({
    not_found: {
      answeredAs: ['account_not_found'],
      why: 'api-decisions §4 gives an unknown account, and another organization’s, the specific 404 code.',
    },
  })
  async get(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Param('accountId') accountId: string,
    @Query() _query: NoQueryDto,
  ): Promise<AccountView> {
    // A malformed id names no account; answering here spares the ledger a round trip.
    if (!isId('account', accountId)) throw new DomainError('account_not_found', 'No account with this id was found.');
    return this.bus.send('ledger', 'accounts.get', { organizationId: principal.organizationId, accountId }, origin);
  }
}
