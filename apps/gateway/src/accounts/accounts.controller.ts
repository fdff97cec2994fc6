import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { DomainError, isId, type AccountEntryView, type AccountView, type PageView, type Principal } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { NoQueryDto } from '../http/no-query.dto';
import { CommandOrigin } from '../http/command-origin.decorator';
import { PageQueryDto } from '../lists/page-query.dto';
import { Paginated } from '../lists/paginated.decorator';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { REQUEST_ID_RESPONSE_HEADER } from '../openapi/response-headers';
import { SpecListedCodes } from '../openapi/spec-listed-codes.decorator';
import { AccountDto, AccountEntryDto, OpenAccountBody, UpdateAccountBody } from './account.dto';

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
      why: 'an unknown account, and another organization’s, has the specific 404 code.',
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

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'openAccount',
    summary: 'Open a further account',
    description:
      'Opens a non-primary account of the organization, `ACTIVE`, with no balances and no funding methods (add them with POST /v1/funding-methods). ' +
      'Send an `Idempotency-Key`: a retry with it answers the same account instead of opening another.',
  })
  @ApiCreatedResponse({ description: 'The new account.', type: AccountDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors()
  open(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Body() body: OpenAccountBody,
    @Query() _query: NoQueryDto,
  ): Promise<AccountView> {
    return this.bus.send('ledger', 'accounts.open', { organizationId: principal.organizationId, name: body.name, description: body.description ?? null }, origin);
  }

  @Patch(':accountId')
  @ApiOperation({
    operationId: 'updateAccount',
    summary: 'Rename an account',
    description:
      'Changes the account’s `name` and/or `description` (null clears it); a field left out is kept. The primary account can be renamed too. ' +
      'Another organization’s account, an unknown or malformed id is 404 `account_not_found`.',
  })
  @ApiParam({ name: 'accountId', description: 'Account id, `acct_` + 32 hex.', example: 'acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c' })
  @ApiOkResponse({ description: 'The account as updated.', type: AccountDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('account_not_found')
  update(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Param('accountId') accountId: string,
    @Body() body: UpdateAccountBody,
    @Query() _query: NoQueryDto,
  ): Promise<AccountView> {
    if (!isId('account', accountId)) throw new DomainError('account_not_found', 'No account with this id was found.');
    return this.bus.send(
      'ledger',
      'accounts.update',
      {
        organizationId: principal.organizationId,
        accountId,
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
      },
      origin,
    );
  }

  @Get(':accountId/entries')
  @ApiOperation({
    operationId: 'listAccountEntries',
    summary: 'The account’s statement: its journal lines',
    description:
      'Every balance change of the account, newest first, each with its transaction, asset, signed amount and the balance it left, so a statement ' +
      'reconciles line by line (per asset, each line’s `balanceAfter` is the next older line’s plus this `amount`). Paginated with `limit` and `cursor`. ' +
      'Another organization’s account, an unknown or malformed id is 404 `account_not_found`.',
  })
  @ApiParam({ name: 'accountId', description: 'Account id, `acct_` + 32 hex.', example: 'acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c' })
  @Paginated(AccountEntryDto, 'AccountEntryList', 'One page of the account’s journal lines, newest first.')
  @ApiErrors('account_not_found')
  entries(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Param('accountId') accountId: string,
    @Query() query: PageQueryDto,
  ): Promise<PageView<AccountEntryView>> {
    if (!isId('account', accountId)) throw new DomainError('account_not_found', 'No account with this id was found.');
    return this.bus.send('ledger', 'account-entries.list', { organizationId: principal.organizationId, accountId, page: query.toPageRequest() }, origin);
  }
}
