import { Body, Controller, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Principal, TransactionView } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { CommandOrigin } from '../http/command-origin.decorator';
import { NoQueryDto } from '../http/no-query.dto';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { REQUEST_ID_RESPONSE_HEADER } from '../openapi/response-headers';
import { SpecListedCodes } from '../openapi/spec-listed-codes.decorator';
import { SandboxOnly } from '../sandbox/sandbox-routes';
import { FaucetBody, TransactionDto } from './transaction.dto';

/** Spec 4.6: exists only in the sandbox (never registered in production, see SandboxOnly). */
@ApiTags('Transactions')
@SandboxOnly()
@Controller('v1/transactions/faucet')
export class FaucetController {
  constructor(private readonly bus: CommandBus) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'creditFaucet',
    summary: 'Sandbox: credit test funds (simulated crypto deposit)',
    description:
      'Simulates a crypto deposit into one of the account’s deposit addresses and credits the ledger at once: the answer is the `CRYPTO_PAYIN` ' +
      'transaction, `COMPLETED`, and one `transaction.status.updated` (EXPECTED → COMPLETED, role `RECEIVER`) is emitted. No on-chain transfer happens.\n\n' +
      'Rules: the organization must be verification-approved (else 403 `verification_required`); the asset must be a crypto asset with sandbox chains ' +
        '(USDC and USDT on all six, ETH on the four EVM ones; a fiat asset or BTC is 400 `invalid_request`) activated on the account with a deposit ' +
      'address on `chainName` (else 400 `invalid_request`, whose message names the `POST /v1/funding-methods` call that fixes it); the amount must be within ' +
      'the asset’s scale and at most the sandbox cap per call (`FAUCET_MAX_AMOUNT`, default 1,000,000 units; above it 400 `invalid_request`). ' +
      'Another organization’s account, or an unknown one, is 404 `account_not_found`. ' +
      'Send an `Idempotency-Key`: a retry with it credits once and answers the same transaction.\n\n' +
      'Sandbox only: in production this route answers 404 `not_found` exactly like an unknown route.',
  })
  @ApiOkResponse({ description: 'The completed CRYPTO_PAYIN transaction.', type: TransactionDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('verification_required', 'account_not_found')
  @SpecListedCodes({
    forbidden: {
      answeredAs: ['verification_required'],
      why: 'an organization that is not verification-approved has the specific 403 code.',
    },
    not_found: {
      answeredAs: ['account_not_found'],
      why: 'the account is the one thing the faucet looks up; in production the route itself answers `not_found` as unknown.',
    },
  })
  credit(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Body() body: FaucetBody,
    @Query() _query: NoQueryDto,
  ): Promise<TransactionView> {
    return this.bus.send(
      'ledger',
      'faucet.credit',
      { organizationId: principal.organizationId, accountId: body.accountId, asset: body.asset, amount: body.amount, chainName: body.chainName },
      origin,
    );
  }
}
