import { Controller, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { DomainError, isId, TRANSACTION_ACTIONS, type Principal, type TransactionAction, type TransactionView } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { CommandOrigin } from '../http/command-origin.decorator';
import { NoQueryDto } from '../http/no-query.dto';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { REQUEST_ID_RESPONSE_HEADER } from '../openapi/response-headers';
import { TransactionDto } from '../transactions/transaction.dto';

const MOVES: Record<TransactionAction, string> = {
  lock: '`lock`: EXPECTED → LOCKED',
  complete: '`complete`: LOCKED → COMPLETED (a payin credits the account; a payout sends the held funds and books its fee)',
  decline: '`decline`: EXPECTED or LOCKED → DECLINED (a payout’s hold is released)',
  refund: '`refund`: COMPLETED → REFUNDED (a payin is debited back, 422 `insufficient_funds` if already spent; a payout’s amount and fee are returned)',
};

/** Sandbox simulations of the payment rails; never registered in production (sandbox-routes.ts). */
@ApiTags('Sandbox')
@Controller('v1/sandbox/transactions')
export class SandboxTransactionsController {
  constructor(private readonly bus: CommandBus) {}

  @Post(':transactionId/:action')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'advanceSandboxTransaction',
    summary: 'Sandbox: move a transaction along its state machine',
    description:
      `Drives what the payment rail would do. ${Object.values(MOVES).join('; ')}. ` +
      'Each move posts its journal entry and emits `transaction.status.updated` in one database transaction. ' +
      'A move the current status does not allow is 400 `invalid_request` naming the current status (a faucet credit is already COMPLETED: only `refund` applies). ' +
      'Another organization’s transaction, an unknown or malformed id is 404 `transaction_not_found`; an action other than these four is 404 `not_found`. ' +
      'Sandbox only: in production every `/v1/sandbox/...` route answers 404 `not_found` like an unknown route.',
  })
  @ApiParam({ name: 'transactionId', description: 'Transaction id, `txn_` + 32 hex.', example: 'txn_8a1c3e5f7b9d4f2a6c8e0b2d4f6a8c0e' })
  @ApiParam({ name: 'action', enum: TRANSACTION_ACTIONS, description: 'The move to make.' })
  @ApiOkResponse({ description: 'The transaction in its new status.', type: TransactionDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('transaction_not_found', 'not_found', 'insufficient_funds')
  advance(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Param('transactionId') transactionId: string,
    @Param('action') action: string,
    @Query() _query: NoQueryDto,
  ): Promise<TransactionView> {
    if (!(TRANSACTION_ACTIONS as readonly string[]).includes(action)) throw new DomainError('not_found', 'No such route.');
    if (!isId('transaction', transactionId)) throw new DomainError('transaction_not_found', 'No transaction with this id was found.');
    return this.bus.send(
      'ledger',
      'transactions.advance',
      { organizationId: principal.organizationId, transactionId, action: action as TransactionAction },
      origin,
    );
  }
}
