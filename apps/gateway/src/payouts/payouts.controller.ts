import { Body, Controller, HttpCode, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { PayoutRail, Principal, TransactionView } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { CommandOrigin } from '../http/command-origin.decorator';
import { NoQueryDto } from '../http/no-query.dto';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { REQUEST_ID_RESPONSE_HEADER } from '../openapi/response-headers';
import { TransactionDto } from '../transactions/transaction.dto';
import { CryptoPayoutBody, FiatPayoutBody } from './payout.dto';

const MONEY =
  'Money: the payout fee of the rail (`GET /v1/fees`, `payoutFees`, in the payout asset) is charged **on top** of `amount` and goes to the ' +
  'platform. Amount plus fee are **held** at once: the answer is the transaction, `EXPECTED`, with `fee` and `feeAsset`, and the account’s ' +
  'balance is already lower by both. A balance short of amount plus fee is 422 `insufficient_funds` and holds nothing.';

const MOVES =
  'Moves: `EXPECTED` → `LOCKED` → `COMPLETED` (the amount leaves, the fee is earned) or `DECLINED` (hold and fee returned to the account); ' +
  '`COMPLETED` → `REFUNDED` when the rail returns the money (amount **and fee** returned: a refunded payout costs nothing). Creation emits ' +
  'no event; every move emits one `transaction.status.updated` (role `SENDER`). Follow it on webhooks or `GET /v1/transactions/{transactionId}`.';

const SANDBOX_MOVES =
  'Sandbox: payouts advance by themselves, one step each `SANDBOX_SETTLE_DELAY` (2 s by default): `EXPECTED` → `LOCKED` → `COMPLETED`. ' +
  '`POST /v1/sandbox/transactions/{transactionId}/{lock|complete|decline|refund}` moves one explicitly (e.g. `refund` after it completes).';

const BENEFICIARY =
  'Beneficiary: one of the organization’s; another organization’s or an unknown one is 404 `beneficiary_not_found`. It must be `ACTIVE`: ' +
  '`BLOCKED` is 409 `beneficiary_blocked`, `INACTIVE` or `ARCHIVED` 400 `invalid_request`. It is paid only from the account it is registered on ' +
  '(its `accountId`): one of another of the organization’s accounts is 400 `invalid_request` naming `beneficiaryId` (pay it from its own account, ' +
  'or move it with `PATCH /v1/beneficiaries/{beneficiaryId}`); internal transfers follow the same rule.\n\n' +
  'Destination: the payout keeps where it goes as the beneficiary is at creation, in the transaction’s `destination` (the bank account masked to ' +
  'its last four characters, or the chain and address). A later PATCH of the beneficiary changes neither that nor where this payout is sent; it ' +
  'applies to the next payouts.';

const PRODUCTION =
  'Production: until a payment rail is connected for the asset, every payout is refused with 403 `service_not_enabled` before anything is ' +
  'checked or held (the sandbox’s rails move money only in the sandbox).';

const COMMON_REFUSALS =
  'Other refusals, each holding nothing: a missing or malformed field, an asset outside the catalog, an amount that is not a positive decimal ' +
  'string within the asset’s scale: 400 `invalid_request` whose message starts with the field’s name; an organization that is not ' +
  'verification-approved: 403 `verification_required`; another organization’s account, or an unknown one: 404 `account_not_found`. ' +
  'Send an `Idempotency-Key`: a retry with it pays once and answers the same transaction.';

/** api-decisions §5: payouts to beneficiaries; the ledger holds the money and drives the rails (see the README, "Payouts and rails"). */
@ApiTags('Payouts')
@Controller('v1/payouts')
export class PayoutsController {
  constructor(private readonly bus: CommandBus) {}

  @Post('fiat')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createFiatPayout',
    summary: 'Pay a bank beneficiary (fiat payout)',
    description:
      'Sends `amount` of a fiat `asset` from one of the organization’s accounts to a `BANK` beneficiary, whose bank account currency must be ' +
      `\`asset\` (else 400 \`invalid_request\`). \`reference\` travels with the transfer.\n\n${BENEFICIARY}\n\n${MONEY}\n\n${MOVES}\n\n${SANDBOX_MOVES} ` +
      '**Magic value**: the sandbox bank declines an amount ending in `.13` (e.g. `25.13`) after locking: `EXPECTED` → `LOCKED` → `DECLINED` ' +
      'with a `failureReason`, hold and fee returned, as card sandboxes decline their test amounts.\n\n' +
      `${PRODUCTION}\n\n${COMMON_REFUSALS}`,
  })
  @ApiCreatedResponse({ description: 'The payout, `FIAT_PAYOUT`, `EXPECTED`, amount and fee held.', type: TransactionDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('service_not_enabled', 'verification_required', 'account_not_found', 'beneficiary_not_found', 'beneficiary_blocked', 'insufficient_funds')
  fiat(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Body() body: FiatPayoutBody,
    @Query() _query: NoQueryDto,
  ): Promise<TransactionView> {
    return this.create(principal, origin, 'FIAT', body, body.reference ?? null);
  }

  @Post('crypto')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createCryptoPayout',
    summary: 'Pay a crypto beneficiary (crypto payout)',
    description:
      'Sends `amount` of a crypto `asset` from one of the organization’s accounts to a `CRYPTO` beneficiary’s address, on the beneficiary’s ' +
      'chain (the transaction’s `chainName`); the chain must carry the asset, and a beneficiary registered for one asset takes only that one ' +
      `(else 400 \`invalid_request\`).\n\n${BENEFICIARY}\n\n${MONEY}\n\n${MOVES}\n\n${SANDBOX_MOVES} ` +
      '**Magic values**: the sandbox chains refuse a send to their zero or burn address with 502 `chain_send_failed`, and nothing is held: ' +
      'EVM `0x0000000000000000000000000000000000000000` and `0x000000000000000000000000000000000000dEaD`; Solana ' +
      '`11111111111111111111111111111111` and `1nc1nerator11111111111111111111111111111111`; Tron `T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb`.\n\n' +
      `${PRODUCTION}\n\n${COMMON_REFUSALS}`,
  })
  @ApiCreatedResponse({ description: 'The payout, `CRYPTO_PAYOUT`, `EXPECTED`, amount and fee held.', type: TransactionDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('service_not_enabled', 'verification_required', 'account_not_found', 'beneficiary_not_found', 'beneficiary_blocked', 'insufficient_funds', 'chain_send_failed')
  crypto(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Body() body: CryptoPayoutBody,
    @Query() _query: NoQueryDto,
  ): Promise<TransactionView> {
    return this.create(principal, origin, 'CRYPTO', body, null);
  }

  private create(
    principal: Principal,
    origin: CommandOrigin,
    rail: PayoutRail,
    body: { accountId: string; beneficiaryId: string; asset: string; amount: string },
    reference: string | null,
  ): Promise<TransactionView> {
    return this.bus.send(
      'ledger',
      'payouts.create',
      { organizationId: principal.organizationId, accountId: body.accountId, rail, beneficiaryId: body.beneficiaryId, asset: body.asset, amount: body.amount, reference },
      origin,
    );
  }
}
