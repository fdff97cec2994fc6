import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { DomainError, isId, type PageView, type Principal, type TransactionView } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { CommandOrigin } from '../http/command-origin.decorator';
import { NoQueryDto } from '../http/no-query.dto';
import { Paginated } from '../lists/paginated.decorator';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { REQUEST_ID_RESPONSE_HEADER } from '../openapi/response-headers';
import { TransactionDto, TransactionListQueryDto } from './transaction.dto';

@ApiTags('Transactions')
@Controller('v1/transactions')
export class TransactionsController {
  constructor(private readonly bus: CommandBus) {}

  @Get()
  @ApiOperation({
    operationId: 'listTransactions',
    summary: 'List the organization’s transactions',
    description:
      'Newest first, across all its accounts. Filters `accountId`, `type`, `status`, `createdAfter` and `createdBefore` (inclusive) combine. ' +
      'Paginated with `limit` (1–100, default 25) and the opaque `cursor`, which is bound to the filters: a cursor used with other filters, ' +
      'altered, or from another list is 400 `invalid_request`. An `accountId` of another organization simply matches nothing.',
  })
  @Paginated(TransactionDto, 'TransactionList', 'One page of transactions, newest first.')
  @ApiErrors()
  list(@CurrentPrincipal() principal: Principal, @CommandOrigin() origin: CommandOrigin, @Query() query: TransactionListQueryDto): Promise<PageView<TransactionView>> {
    return this.bus.send(
      'ledger',
      'transactions.list',
      {
        organizationId: principal.organizationId,
        page: query.toPageRequest(),
        filters: {
          accountId: query.accountId,
          type: query.type,
          status: query.status,
          createdAfter: query.createdAfter,
          createdBefore: query.createdBefore,
        },
      },
      origin,
    );
  }

  @Get(':transactionId')
  @ApiOperation({
    operationId: 'getTransaction',
    summary: 'Retrieve one transaction',
    description:
      'A transaction of one of the organization’s accounts. Another organization’s, an unknown id and a malformed id all answer 404 `transaction_not_found`. ' +
      'Takes no query parameters.',
  })
  @ApiParam({ name: 'transactionId', description: 'Transaction id, `txn_` + 32 hex.', example: 'txn_8a1c3e5f7b9d4f2a6c8e0b2d4f6a8c0e' })
  @ApiOkResponse({ description: 'The transaction.', type: TransactionDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('transaction_not_found')
  async get(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Param('transactionId') transactionId: string,
    @Query() _query: NoQueryDto,
  ): Promise<TransactionView> {
    if (!isId('transaction', transactionId)) throw new DomainError('transaction_not_found', 'No transaction with this id was found.');
    return this.bus.send('ledger', 'transactions.get', { organizationId: principal.organizationId, transactionId }, origin);
  }
}
