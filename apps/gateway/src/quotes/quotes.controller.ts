import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { PageView, Principal, QuoteView, TransactionView } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { CommandOrigin } from '../http/command-origin.decorator';
import { NoQueryDto } from '../http/no-query.dto';
import { Paginated } from '../lists/paginated.decorator';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { REQUEST_ID_RESPONSE_HEADER } from '../openapi/response-headers';
import { SpecListedCodes } from '../openapi/spec-listed-codes.decorator';
import { TransactionDto } from '../transactions/transaction.dto';
import { QUOTE_PARAM, quoteIdOf } from './quote-id.param';
import { CreateQuoteBody, QUOTE_EXPIRY, QUOTE_PRICING, QuoteDto, QuoteListQueryDto, quoteAmountsOf } from './quote.dto';

const NOT_FOUND_NOTE = 'Another organization’s quote, an unknown id and a malformed id all answer 404 `quote_not_found`.';

const REFUSALS =
  'Refusals, each creating nothing: a missing or malformed field, an asset outside the catalog, an amount that is not a positive decimal string or ' +
  'has more decimals than its asset’s scale, both or neither amount, or an account that is not `ACTIVE`: 400 `invalid_request` whose message ' +
  'starts with the field’s name (`fromAmount: …`); the same asset on both sides, or a pair without a rate: 422 `swap_direction_not_allowed`; a ' +
  '`fromAmount` (given, or solved from `toAmount`) outside the pair’s trade size: 422 `trade_size_out_of_bounds`, whose message names both bounds ' +
  '(by default, in the source asset: USD, EUR, USDC and USDT 1 to 1000000; BTC 0.00001 to 10; ETH 0.0003 to 300); another organization’s ' +
  'account, or an unknown one: 404 `account_not_found`.';

const EXECUTION =
  'Executes a `PENDING` quote at its price, as **one** ledger transaction of type `TRADE`: the quote’s account is debited `fromAmount` of ' +
  '`fromAsset` and credited `toAmount` of `toAsset`, and the spread fee (`spread.fee`, in `fromAsset`, part of `fromAmount`) goes to the platform. ' +
  'The answer is that TRADE transaction, `COMPLETED`, with `quoteId` set: its `amount` and `asset` are the quote’s `fromAmount` and `fromAsset`, ' +
  'its `fee` and `feeAsset` the spread fee (included in `amount`, not charged on top). The quote becomes `COMPLETED` with `transactionId` naming ' +
  'the trade, and a `transaction.status.updated` webhook is sent for it.\n\n' +
  'Commission: when the client organization has a creator (its parent) or else a referrer, `referrerShareBps` of the spread fee (the share of ' +
  'the organization’s tier at quote time, like the spread), rounded **down** at the scale of the fee’s asset, is credited to that organization’s ' +
  'primary account as a `COMMISSION` transaction (with the same `quoteId`) in the same journal entry as the trade; the platform keeps the rest. ' +
  'A commission that rounds to zero is not posted.';

const EXECUTE_REFUSALS =
  'Refusals: at or after `expiresAt`, 409 `quote_expired` (the quote reads `EXPIRED`), unless its trade was made before then by an execute ' +
  'whose answer was lost: that trade is the answer; a quote already executed, or `FAILED`, 409 ' +
  '`quote_already_used`; an available balance of `fromAsset` short of `fromAmount`, 422 `insufficient_funds`, and the quote stays `PENDING`: fund ' +
  'the account and execute it again before it expires; the account suspended or closed since the quote was created, 403 `forbidden`, and the quote ' +
  `becomes \`FAILED\` with a \`failureReason\`. ${NOT_FOUND_NOTE} No refusal moves any money.`;

const EXECUTE_RETRIES =
  'Retries: executing is safe to retry. The quote id is the ledger’s operation id, so however often the request is sent, with or without an ' +
  '`Idempotency-Key`, at most one trade exists per quote. A retry after a lost reply answers 409 `quote_already_used`, unless it carries the same ' +
  '`Idempotency-Key` as the original request, which replays the original 200 (the trade). Of two concurrent executes of one quote, exactly one ' +
  'answers the trade and the other answers 409 `quote_already_used`. A 503 (or no answer) can come after the trade was made: the quote then ' +
  'reads `PENDING` until it is executed again, which answers the trade, or until its `expiresAt`, from when it reads `COMPLETED` with the trade ' +
  'without any request. Never replace such a quote with a new one: execute it again.';

const EXECUTE_ELIGIBILITY =
  'The organization’s verification status is not required to trade: a quote moves only funds already in the account. Takes no body (one sent ' +
  'is ignored) and no query parameters.';

/** Spec 2.6, 4.7 and api-decisions §6: exchange quotes, priced and kept by the quote service. */
@ApiTags('Quotes')
@Controller('v1/quotes')
export class QuotesController {
  constructor(private readonly bus: CommandBus) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createQuote',
    summary: 'Create an exchange quote',
    description:
      'Prices an exchange of `fromAsset` into `toAsset` for one of the organization’s accounts at the sandbox mid-rate less the ' +
      'organization’s spread, and keeps the price for 5 minutes. Give `fromAmount` to sell an exact amount, or `toAmount` to receive one. ' +
      `Nothing moves yet: the quote is a price, executed later.\n\n${QUOTE_PRICING}\n\n${QUOTE_EXPIRY}\n\n${REFUSALS}\n\n` +
      'Send an `Idempotency-Key`: a retry with it answers the same quote (same `quoteId`, same price) rather than a new one.',
  })
  @ApiCreatedResponse({ description: 'The quote, `PENDING`.', type: QuoteDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('account_not_found', 'swap_direction_not_allowed', 'trade_size_out_of_bounds')
  @SpecListedCodes({
    forbidden: {
      never: 'every organization may ask for quotes, whatever its verification status: a quote moves no money. `Service-On-Behalf-Of` is not supported here (400 `invalid_request`).',
    },
    not_found: { answeredAs: ['account_not_found'], why: 'the account is the one thing this endpoint looks up, and it has its specific 404 code.' },
    quote_expired: {
      never: 'creating a quote involves no existing quote. `quote_expired` (409) is the answer to executing a quote after its `expiresAt`; reading one shows status `EXPIRED`.',
    },
  })
  create(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Body() body: CreateQuoteBody,
    @Query() _query: NoQueryDto,
  ): Promise<QuoteView> {
    const amounts = quoteAmountsOf(body);
    return this.bus.send(
      'quote',
      'quotes.create',
      { organizationId: principal.organizationId, accountId: body.accountId, fromAsset: body.fromAsset, toAsset: body.toAsset, ...amounts },
      origin,
    );
  }

  @Get()
  @ApiOperation({
    operationId: 'listQuotes',
    summary: 'List the organization’s quotes',
    description:
      'Newest first, across all its accounts. `status` filters by the status as of the request, expiry included: a quote still `PENDING` past ' +
      'its `expiresAt` is checked against the ledger and listed, and filtered, as `COMPLETED` if its trade was made, else `EXPIRED`. The standard ' +
      'paginated list: `limit` (1–100, default 25) and the opaque `cursor`, which is bound to the filter: a cursor used with another filter, ' +
      'altered, or from another list is 400 `invalid_request`.',
  })
  @Paginated(QuoteDto, 'QuoteList', 'One page of quotes, newest first.')
  @ApiErrors()
  list(@CurrentPrincipal() principal: Principal, @CommandOrigin() origin: CommandOrigin, @Query() query: QuoteListQueryDto): Promise<PageView<QuoteView>> {
    return this.bus.send(
      'quote',
      'quotes.list',
      { organizationId: principal.organizationId, page: query.toPageRequest(), filters: query.status === undefined ? {} : { status: query.status } },
      origin,
    );
  }

  @Get(':quoteId')
  @ApiOperation({
    operationId: 'getQuote',
    summary: 'Retrieve a quote',
    description:
      'The quote as of now: one still `PENDING` at or after its `expiresAt` is checked against the ledger and shows `COMPLETED` with its ' +
      `\`transactionId\` if its trade was made, else \`EXPIRED\`. ${NOT_FOUND_NOTE} Takes no query parameters.`,
  })
  @ApiParam(QUOTE_PARAM)
  @ApiOkResponse({ description: 'The quote.', type: QuoteDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('quote_not_found')
  get(@CurrentPrincipal() principal: Principal, @CommandOrigin() origin: CommandOrigin, @Param('quoteId') quoteId: string, @Query() _query: NoQueryDto): Promise<QuoteView> {
    return this.bus.send('quote', 'quotes.get', { organizationId: principal.organizationId, quoteId: quoteIdOf(quoteId) }, origin);
  }

  @Post(':quoteId/execute')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'executeQuote',
    summary: 'Execute a quote',
    description: `${EXECUTION}\n\n${EXECUTE_REFUSALS}\n\n${EXECUTE_RETRIES}\n\n${EXECUTE_ELIGIBILITY}`,
  })
  @ApiParam(QUOTE_PARAM)
  @ApiOkResponse({ description: 'The TRADE transaction, `COMPLETED`, with `quoteId` set.', type: TransactionDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('quote_not_found', 'quote_expired', 'quote_already_used', 'insufficient_funds', 'forbidden')
  execute(@CurrentPrincipal() principal: Principal, @CommandOrigin() origin: CommandOrigin, @Param('quoteId') quoteId: string, @Query() _query: NoQueryDto): Promise<TransactionView> {
    return this.bus.send('quote', 'quotes.execute', { organizationId: principal.organizationId, quoteId: quoteIdOf(quoteId) }, origin);
  }
}
