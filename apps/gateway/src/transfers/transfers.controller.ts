import { Body, Controller, HttpCode, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Principal, TransactionView } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { CommandOrigin } from '../http/command-origin.decorator';
import { NoQueryDto } from '../http/no-query.dto';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { REQUEST_ID_RESPONSE_HEADER } from '../openapi/response-headers';
import { TransactionDto } from '../transactions/transaction.dto';
import { CreateTransferBody } from './transfer.dto';

/** Internal (servicenet) transfers between organizations, posted by the ledger. */
@ApiTags('Transfers')
@Controller('v1/transfers')
export class TransfersController {
  constructor(private readonly bus: CommandBus) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createTransfer',
    summary: 'Send an internal transfer to another organization',
    description:
      'Moves `amount` of `asset` from the account to the primary account of the organization a SERVICENET beneficiary names, atomically and at ' +
      'once: one journal entry, and one `INTERNAL_TRANSFER` transaction per side, both `COMPLETED`. The answer is the sender’s transaction ' +
      '(`beneficiaryId` set, `counterpartyOrganizationId` the receiving organization). The receiving organization gets its own transaction (no ' +
      '`beneficiaryId`, `counterpartyOrganizationId` the sender) on its primary account. Each side receives its own `transaction.status.updated` ' +
      '(EXPECTED → COMPLETED): role `SENDER` to the sender’s endpoints, role `RECEIVER` to the receiver’s, each naming only its own account. No fee.\n\n' +
      'A beneficiary is paid only from the account it is registered on (its `accountId`), for transfers and payouts alike: one of another of the ' +
      'organization’s accounts is 400 `invalid_request` naming `beneficiaryId` (send from its own account, or move it with ' +
      '`PATCH /v1/beneficiaries/{beneficiaryId}`).\n\n' +
      'Refusals, each moving nothing: servicenet not enabled for the caller, or disabled by the receiving organization since the beneficiary was ' +
      'created (or its primary account not ACTIVE): 403 `servicenet_not_enabled`; the organization not verification-approved: 403 ' +
      '`verification_required`; a BLOCKED beneficiary: 409 `beneficiary_blocked`; an ARCHIVED or INACTIVE beneficiary, one that is not SERVICENET, one ' +
      'of another of the organization’s accounts, an asset outside the catalog, an amount that is not a positive decimal string within the asset’s ' +
      'scale, or the account not ACTIVE: 400 `invalid_request` naming the field; a balance short of `amount`: 422 `insufficient_funds`; another ' +
      'organization’s (or an unknown) beneficiary: 404 `beneficiary_not_found`, account: 404 `account_not_found`.\n\n' +
      'Send an `Idempotency-Key`: a retry with it answers the same transaction and moves the money once.',
  })
  @ApiCreatedResponse({ description: 'The sender’s INTERNAL_TRANSFER transaction, COMPLETED.', type: TransactionDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('servicenet_not_enabled', 'verification_required', 'beneficiary_not_found', 'account_not_found', 'beneficiary_blocked', 'insufficient_funds')
  create(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Body() body: CreateTransferBody,
    @Query() _query: NoQueryDto,
  ): Promise<TransactionView> {
    return this.bus.send(
      'ledger',
      'transfers.create',
      {
        organizationId: principal.organizationId,
        accountId: body.accountId,
        beneficiaryId: body.beneficiaryId,
        asset: body.asset,
        amount: body.amount,
        reference: body.reference ?? null,
      },
      origin,
    );
  }
}
