import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { BeneficiaryView, PageView, Principal } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { CommandOrigin } from '../http/command-origin.decorator';
import { NoQueryDto } from '../http/no-query.dto';
import { Paginated } from '../lists/paginated.decorator';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { REQUEST_ID_RESPONSE_HEADER } from '../openapi/response-headers';
import { SpecListedCodes, type SpecListedCodeNote } from '../openapi/spec-listed-codes.decorator';
import { BENEFICIARY_PARAM, beneficiaryIdOf } from './beneficiary-id.param';
import { CreateBankBeneficiaryBody, CreateCryptoBeneficiaryBody, CreateServicenetBeneficiaryBody, sentFields, UpdateBeneficiaryBody } from './beneficiary-request.dto';
import { BENEFICIARY_LIFECYCLE, BeneficiaryDto, BeneficiaryListQueryDto } from './beneficiary.dto';

const NOT_FOUND_NOTE = 'Another organization’s beneficiary, an unknown id and a malformed id all answer 404 `beneficiary_not_found`.';
const VALIDATION_NOTE =
  'Every field is checked (see each field); a refusal is 400 `invalid_request` whose message starts with the field’s name ' +
  '(`iban: is not a valid IBAN (check digits or country format)`), and nothing is created or changed.';
const DUPLICATE_NOTE =
  'A second beneficiary of the same account with the same destination (same IBAN, or same account number at the same bank; same chain and address) ' +
  'is allowed but flagged: its `duplicateOf` names the earlier one.';
const MASKING_NOTE = 'The full account number and the tax id are write-only: stored encrypted, never returned (only `bank.accountNumberLast4` and `taxIdType`) and never logged.';

const FORBIDDEN_NEVER: SpecListedCodeNote = {
  never: 'every organization may register and change its beneficiaries; nothing needs enabling, and `Service-On-Behalf-Of` is not supported here (400 `invalid_request`).',
};
const QUOTE_EXPIRED_NEVER: SpecListedCodeNote = { never: 'this endpoint involves no quote.' };

/** Spec 2.5, 4.4, 4.5 and api-decisions §7: the organization's payout recipients, kept by the beneficiary service. */
@ApiTags('Beneficiaries')
@Controller('v1/beneficiaries')
export class BeneficiariesController {
  constructor(private readonly bus: CommandBus) {}

  @Post('bank')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createBankBeneficiary',
    summary: 'Register a bank beneficiary',
    description:
      'Creates an `ACTIVE` BANK beneficiary on one of the organization’s accounts; the answer has `bank` filled and `crypto` null. ' +
      `${VALIDATION_NOTE} ${MASKING_NOTE} ${DUPLICATE_NOTE}\n\n` +
      'Methods: `WIRE`, `SWIFT` (any FIAT currency of the catalog), `SEPA` (an `iban` and EUR), `ACH` (a `routingNumber` and USD), `FASTER_PAYMENTS` ' +
      '(GBP in GB: the asset catalog has no GBP yet, so it cannot pass today). `entityType` is optional; when given, `INDIVIDUAL` needs `firstName` and ' +
      '`lastName`, `BUSINESS` needs `businessName`. Dates are `YYYY-MM-DD`, phone numbers are answered in E.164, country codes upper-cased.',
  })
  @ApiCreatedResponse({ description: 'The beneficiary, ACTIVE.', type: BeneficiaryDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('account_not_found')
  @SpecListedCodes({
    forbidden: FORBIDDEN_NEVER,
    not_found: { answeredAs: ['account_not_found'], why: 'the account is the one thing this endpoint looks up, and it has its specific 404 code.' },
    quote_expired: QUOTE_EXPIRED_NEVER,
  })
  createBank(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Body() body: CreateBankBeneficiaryBody,
    @Query() _query: NoQueryDto,
  ): Promise<BeneficiaryView> {
    return this.bus.send('beneficiary', 'bank-beneficiaries.create', { ...sentFields(body), organizationId: principal.organizationId }, origin);
  }

  @Post('crypto')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createCryptoBeneficiary',
    summary: 'Register a crypto beneficiary',
    description:
      'Creates an `ACTIVE` CRYPTO beneficiary on one of the organization’s accounts; the answer has `crypto` filled and `bank` null. ' +
      'The address is checked against the chain: EVM chains `0x` + 40 hex with the EIP-55 checksum enforced when mixed case, Solana base58 of 32 bytes, ' +
      'Tron base58check with the 0x41 prefix. The chains are the sandbox chains in the sandbox and their mainnets in production. ' +
      `${VALIDATION_NOTE} ${DUPLICATE_NOTE} The identity fields are those of a bank beneficiary, with the same rules; the tax id is write-only.`,
  })
  @ApiCreatedResponse({ description: 'The beneficiary, ACTIVE.', type: BeneficiaryDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('account_not_found')
  createCrypto(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Body() body: CreateCryptoBeneficiaryBody,
    @Query() _query: NoQueryDto,
  ): Promise<BeneficiaryView> {
    return this.bus.send('beneficiary', 'crypto-beneficiaries.create', { ...sentFields(body), organizationId: principal.organizationId }, origin);
  }

  @Post('servicenet')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createServicenetBeneficiary',
    summary: 'Register a servicenet beneficiary (another organization)',
    description:
      'Creates an `ACTIVE` SERVICENET beneficiary on one of the organization’s accounts: another organization of the platform, found ' +
      'by its servicenet handle (case-insensitive), paid by internal transfer (`POST /v1/transfers`). The answer has `servicenet` ' +
      '(`{handle, organizationName}`) filled and `bank` and `crypto` null; it never carries the other organization’s ids or accounts.\n\n' +
      'Refusals, each creating nothing: servicenet not enabled for the caller (`POST /v1/servicenet/enable`): 403 `servicenet_not_enabled`; a handle ' +
      'no organization holds, or whose organization has servicenet disabled: 404 `servicenet_handle_not_found`; the caller’s own handle, or a missing ' +
      'or malformed field: 400 `invalid_request` naming the field; another organization’s account, or an unknown one: 404 `account_not_found`. ' +
      `${DUPLICATE_NOTE.replace('(same IBAN, or same account number at the same bank; same chain and address)', '(the same receiving organization)')}`,
  })
  @ApiCreatedResponse({ description: 'The beneficiary, ACTIVE.', type: BeneficiaryDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('account_not_found', 'servicenet_not_enabled', 'servicenet_handle_not_found')
  createServicenet(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Body() body: CreateServicenetBeneficiaryBody,
    @Query() _query: NoQueryDto,
  ): Promise<BeneficiaryView> {
    return this.bus.send('beneficiary', 'servicenet-beneficiaries.create', { ...sentFields(body), organizationId: principal.organizationId }, origin);
  }

  @Get()
  @ApiOperation({
    operationId: 'listBeneficiaries',
    summary: 'List the organization’s beneficiaries',
    description:
      'Newest first, across all its accounts and in every status (archived ones included: filter with `status`). Filters `accountId`, `type` and ' +
      '`status` combine. The standard paginated list: `limit` (1–100, default 25) and the opaque `cursor`, which is bound to the filters: a cursor ' +
      'used with other filters, altered, or from another list is 400 `invalid_request`. An `accountId` of another organization matches nothing.',
  })
  @Paginated(BeneficiaryDto, 'BeneficiaryList', 'One page of beneficiaries, newest first.')
  @ApiErrors()
  list(@CurrentPrincipal() principal: Principal, @CommandOrigin() origin: CommandOrigin, @Query() query: BeneficiaryListQueryDto): Promise<PageView<BeneficiaryView>> {
    return this.bus.send(
      'beneficiary',
      'beneficiaries.list',
      {
        organizationId: principal.organizationId,
        page: query.toPageRequest(),
        filters: sentFields({ accountId: query.accountId, type: query.type, status: query.status }),
      },
      origin,
    );
  }

  @Get(':beneficiaryId')
  @ApiOperation({ operationId: 'getBeneficiary', summary: 'Retrieve a beneficiary', description: `${NOT_FOUND_NOTE} Takes no query parameters.` })
  @ApiParam(BENEFICIARY_PARAM)
  @ApiOkResponse({ description: 'The beneficiary.', type: BeneficiaryDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('beneficiary_not_found')
  get(@CurrentPrincipal() principal: Principal, @CommandOrigin() origin: CommandOrigin, @Param('beneficiaryId') beneficiaryId: string, @Query() _query: NoQueryDto): Promise<BeneficiaryView> {
    return this.bus.send('beneficiary', 'beneficiaries.get', { organizationId: principal.organizationId, beneficiaryId: beneficiaryIdOf(beneficiaryId) }, origin);
  }

  @Patch(':beneficiaryId')
  @ApiOperation({
    operationId: 'updateBeneficiary',
    summary: 'Update a beneficiary',
    description:
      'Every field optional; an omitted field is unchanged, `null` clears it. Clearable: every identity and contact field (`email`, ' +
      '`phoneNumber`, names, `legalName`, `dateOfBirth`, `registrationNumber`, address lines, `city`, `region`, `zipCode`, `country`, `taxId`, ' +
      '`taxIdType`), `tags`, `metadata`, and the optional bank fields (`iban`, `routingNumber`, bank address, intermediary bank). Not clearable ' +
      '(null is 400 `invalid_request` "<field>: cannot be cleared", nothing changed): `accountId`, `nickname`, `entityType`, `address` and the bank ' +
      'fields `bankName`, `method`, `currency`, `swiftCode`, `accountNumber`, `bankCountry`. `accountId` moves the beneficiary to another account of the ' +
      'organization (404 `account_not_found` otherwise). `address` (CRYPTO only) is re-validated against the beneficiary’s chain; bank fields apply to ' +
      `BANK beneficiaries only. The result is validated as a whole, as at creation. ${VALIDATION_NOTE} Unknown fields are refused. ` +
      `An ARCHIVED beneficiary answers 409 \`beneficiary_already_archived\` (unarchive it first), a BLOCKED one 409 \`beneficiary_blocked\`. ${NOT_FOUND_NOTE}`,
  })
  @ApiParam(BENEFICIARY_PARAM)
  @ApiOkResponse({ description: 'The beneficiary as updated.', type: BeneficiaryDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('beneficiary_not_found', 'account_not_found', 'beneficiary_already_archived', 'beneficiary_blocked')
  @SpecListedCodes({
    forbidden: FORBIDDEN_NEVER,
    not_found: {
      answeredAs: ['beneficiary_not_found', 'account_not_found'],
      why: 'the two things this endpoint looks up are the beneficiary and, when `accountId` is given, the account; each has its specific 404 code.',
    },
    quote_expired: QUOTE_EXPIRED_NEVER,
  })
  update(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Param('beneficiaryId') beneficiaryId: string,
    @Body() body: UpdateBeneficiaryBody,
    @Query() _query: NoQueryDto,
  ): Promise<BeneficiaryView> {
    return this.bus.send(
      'beneficiary',
      'beneficiaries.update',
      { organizationId: principal.organizationId, beneficiaryId: beneficiaryIdOf(beneficiaryId), changes: sentFields(body) },
      origin,
    );
  }

  @Post(':beneficiaryId/archive')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'archiveBeneficiary',
    summary: 'Archive a beneficiary',
    description:
      'Moves an ACTIVE or INACTIVE beneficiary to ARCHIVED: it cannot be paid or changed until unarchived. Archiving an archived one is 409 ' +
      `\`beneficiary_already_archived\`; a BLOCKED one 409 \`beneficiary_blocked\`. ${NOT_FOUND_NOTE}\n\n${BENEFICIARY_LIFECYCLE}`,
  })
  @ApiParam(BENEFICIARY_PARAM)
  @ApiOkResponse({ description: 'The beneficiary, ARCHIVED.', type: BeneficiaryDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('beneficiary_not_found', 'beneficiary_already_archived', 'beneficiary_blocked')
  archive(@CurrentPrincipal() principal: Principal, @CommandOrigin() origin: CommandOrigin, @Param('beneficiaryId') beneficiaryId: string, @Query() _query: NoQueryDto): Promise<BeneficiaryView> {
    return this.bus.send('beneficiary', 'beneficiaries.archive', { organizationId: principal.organizationId, beneficiaryId: beneficiaryIdOf(beneficiaryId) }, origin);
  }

  @Post(':beneficiaryId/unarchive')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'unarchiveBeneficiary',
    summary: 'Unarchive a beneficiary',
    description: `Moves an ARCHIVED beneficiary back to ACTIVE. Any other status is 409 \`beneficiary_not_archived\`. ${NOT_FOUND_NOTE}\n\n${BENEFICIARY_LIFECYCLE}`,
  })
  @ApiParam(BENEFICIARY_PARAM)
  @ApiOkResponse({ description: 'The beneficiary, ACTIVE.', type: BeneficiaryDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('beneficiary_not_found', 'beneficiary_not_archived')
  unarchive(@CurrentPrincipal() principal: Principal, @CommandOrigin() origin: CommandOrigin, @Param('beneficiaryId') beneficiaryId: string, @Query() _query: NoQueryDto): Promise<BeneficiaryView> {
    return this.bus.send('beneficiary', 'beneficiaries.unarchive', { organizationId: principal.organizationId, beneficiaryId: beneficiaryIdOf(beneficiaryId) }, origin);
  }
}
