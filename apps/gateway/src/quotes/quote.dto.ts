import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, Matches } from 'class-validator';
import { ASSET_CATALOG, DECIMAL_STRING, QUOTE_STATUSES, type QuoteStatus, type QuoteView } from '@pfs/contracts';
import { RequestValidationError } from '../errors/request-validation-error';
import { PageQueryDto } from '../lists/page-query.dto';
import { IsAmount } from '../validation/is-amount.decorator';

export const QUOTE_ID_PATTERN = '^quote_[0-9a-f]{32}$';
const ACCOUNT_ID_PATTERN = '^acct_[0-9a-f]{32}$';
const ACCOUNT_RULE = 'must be an account id (acct_ followed by 32 lowercase hex characters)';
const TRANSACTION_ID_PATTERN = '^txn_[0-9a-f]{32}$';
const ASSET_CODES = ASSET_CATALOG.map((asset) => asset.code);
const SCALES = ASSET_CATALOG.map((asset) => `${asset.code} ${asset.scale}`).join(', ');

/** Quote lifetime (spec 2.6, 8). */
export const QUOTE_LIFETIME_SECONDS = 300;

/** How a quote is priced (api-decisions §6), written once for the schema and the operations. */
export const QUOTE_PRICING =
  'Pricing, in exact decimal arithmetic: `spreadBps` is the organization’s effective spread at quote time, what ' +
  'GET /v1/fees answers (its pricing tier’s `spreadBps`: `standard` 100, `preferred` 60, `vip` 30; without a tier the platform default, 100). ' +
  'The spread fee is charged in `fromAsset`: `spread.fee = fromAmount × spreadBps / 10000`, rounded **up** at the scale of `fromAsset`; ' +
  '`toAmount = (fromAmount − spread.fee) × midRate`, rounded **down** at the scale of `toAsset`; `appliedRate = toAmount / fromAmount`, rounded ' +
  'down to 18 decimals and written without trailing zeros. Given `toAmount` instead, `fromAmount` is the smallest amount at the scale of ' +
  '`fromAsset` whose `toAmount` by the rule above is at least the one asked, and the quote’s `toAmount` is exactly the one asked: every rounding ' +
  `goes to the platform, so the client never receives more than the exact amount nor pays less. Scales: ${SCALES}. ` +
  'The spread is fixed when the quote is created: a later change of the organization’s tier never reprices it.';

/** The expiry and how it is read, written once for the schema and the operations. */
export const QUOTE_EXPIRY =
  `A quote is created \`PENDING\` and expires ${QUOTE_LIFETIME_SECONDS / 60} minutes later: \`expiresAt\` is \`createdAt\` + ${QUOTE_LIFETIME_SECONDS} s exactly. ` +
  'A quote is only ever traded before its `expiresAt`. A quote still `PENDING` when read (retrieved or listed) at or after its `expiresAt` is ' +
  'first checked against the ledger: it shows `COMPLETED` with its `transactionId` if its trade was made (its execute was answered 503, or not ' +
  'at all, after the trade), otherwise `EXPIRED`, which is final; the list’s `status` filter agrees with what is shown. The platform also settles ' +
  'such quotes on its own shortly after their expiry. `COMPLETED` (executed, with `transactionId`) and `FAILED` (with `failureReason`) come ' +
  'with execution. Before its `expiresAt`, a quote whose execute was not answered reads `PENDING` even if its trade was made: execute it again ' +
  '(with the same `Idempotency-Key`) rather than create a new quote; a quote is traded at most once, and that answer is its trade.';

/** An asset of the catalog (api-decisions §4), required. */
function QuoteAsset(description: string): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ enum: ASSET_CODES, enumName: 'AssetCode', description: `${description} An asset code of the catalog (GET /v1/assets), exactly as written there.` }),
    IsDefined({ message: 'is required' }),
    IsIn(ASSET_CODES, { message: `must be one of ${ASSET_CODES.join(', ')}` }),
  );
}

@ApiSchema({
  name: 'CreateQuoteRequest',
  description:
    'Sell `fromAmount` of `fromAsset`, or buy `toAmount` of `toAsset`. Exactly one of the two amounts is given (omitted and null are the same); ' +
    'both or neither is 400 `invalid_request` "fromAmount: give exactly one of fromAmount and toAmount …". Unknown fields are refused.',
})
export class CreateQuoteBody {
  @ApiProperty({
    pattern: ACCOUNT_ID_PATTERN,
    example: 'acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c',
    description:
      'The account to quote for: one of the organization’s own, `ACTIVE` (another organization’s, or an unknown one, is 404 `account_not_found`; ' +
      'a `SUSPENDED` or `CLOSED` one 400 `invalid_request` naming `accountId`).',
  })
  @IsDefined({ message: 'is required' })
  @Matches(new RegExp(ACCOUNT_ID_PATTERN), { message: ACCOUNT_RULE })
  accountId!: string;

  @QuoteAsset('Source asset: what the client sells.')
  fromAsset!: string;

  @QuoteAsset('Destination asset: what the client receives. Another asset than `fromAsset`, of a pair with a rate (else 422 `swap_direction_not_allowed`).')
  toAsset!: string;

  @IsAmount({
    assetField: 'fromAsset',
    optional: true,
    description: 'Amount to sell, spread fee included (mutually exclusive with `toAmount`; omitted or null: not given),',
  })
  fromAmount?: string | null;

  @IsAmount({
    assetField: 'toAsset',
    optional: true,
    description: 'Amount to receive, exactly the quote’s `toAmount` (mutually exclusive with `fromAmount`; omitted or null: not given),',
  })
  toAmount?: string | null;
}

/** The command's amounts: exactly one of them (spec 4.7), refused here with the service's code and field. */
export function quoteAmountsOf(body: CreateQuoteBody): { fromAmount: string | null; toAmount: string | null } {
  const fromAmount = body.fromAmount ?? null;
  const toAmount = body.toAmount ?? null;
  if ((fromAmount === null) === (toAmount === null)) {
    throw new RequestValidationError(`fromAmount: give exactly one of fromAmount and toAmount (${fromAmount === null ? 'neither was' : 'both were'} given)`);
  }
  return { fromAmount, toAmount };
}

@ApiSchema({ name: 'QuoteSpread', description: 'The spread fee of a quote, charged in the source asset.' })
export class QuoteSpreadDto {
  @ApiProperty({ pattern: DECIMAL_STRING.source, example: '1.00', description: '`fromAmount × spreadBps / 10000`, rounded up at the scale of `asset`, written at that scale.' })
  fee!: string;

  @ApiProperty({ enum: ASSET_CODES, enumName: 'AssetCode', description: 'Always the quote’s `fromAsset`.' })
  asset!: string;
}

@ApiSchema({ name: 'Quote', description: `An exchange quote. ${QUOTE_PRICING}\n\n${QUOTE_EXPIRY}` })
export class QuoteDto implements QuoteView {
  @ApiProperty({ enum: ['quote'] })
  object!: 'quote';

  @ApiProperty({ pattern: QUOTE_ID_PATTERN, example: 'quote_3e1f5a7c9b0d2e4f6a8c0b1d3e5f7a9c' })
  quoteId!: string;

  @ApiProperty({ pattern: ACCOUNT_ID_PATTERN, example: 'acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c', description: 'The account the quote is for.' })
  accountId!: string;

  @ApiProperty({ enum: ASSET_CODES, enumName: 'AssetCode', description: 'Source asset.' })
  fromAsset!: string;

  @ApiProperty({ enum: ASSET_CODES, enumName: 'AssetCode', description: 'Destination asset.' })
  toAsset!: string;

  @ApiProperty({ pattern: DECIMAL_STRING.source, example: '100.00', description: 'What the client sells, spread fee included, written at the scale of `fromAsset`.' })
  fromAmount!: string;

  @ApiProperty({ pattern: DECIMAL_STRING.source, example: '106.92', description: 'What the client receives, written at the scale of `toAsset`.' })
  toAmount!: string;

  @ApiProperty({
    pattern: DECIMAL_STRING.source,
    example: '1.0692',
    description: '`toAmount / fromAmount` (units of `toAsset` per unit of `fromAsset`, spread included), rounded down to 18 decimals, without trailing zeros.',
  })
  appliedRate!: string;

  @ApiProperty({ type: () => QuoteSpreadDto, nullable: true, description: 'The spread fee; null when no fee was applied (a spread of 0 bps: the fee rounds up, so any other spread charges at least one unit).' })
  spread!: QuoteSpreadDto | null;

  @ApiProperty({
    enum: QUOTE_STATUSES,
    enumName: 'QuoteStatus',
    description:
      '`PENDING` at creation; `COMPLETED` once executed; `FAILED` when the account could no longer trade. At or after `expiresAt`, a quote not ' +
      'recorded as executed reads `COMPLETED` if the ledger made its trade before then (an execute whose answer was lost), else `EXPIRED`, which is final.',
  })
  status!: QuoteStatus;

  @ApiProperty({ type: 'string', nullable: true, pattern: TRANSACTION_ID_PATTERN, description: 'The `TRADE` transaction once the quote is `COMPLETED`; null until then.' })
  transactionId!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'Why execution failed, when `FAILED`; null otherwise.' })
  failureReason!: string | null;

  @ApiProperty({ format: 'date-time', description: `\`createdAt\` + ${QUOTE_LIFETIME_SECONDS} s.` })
  expiresAt!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
}

/** GET /v1/quotes: the page and the status filter. */
export class QuoteListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    enum: QUOTE_STATUSES,
    enumName: 'QuoteStatus',
    description:
      'Only quotes in this status as of the request. Quotes still `PENDING` past their `expiresAt` are checked against the ledger first: they count ' +
      'as `COMPLETED` if their trade was made, else `EXPIRED`; `PENDING` excludes them.',
  })
  @IsOptional()
  @IsIn(QUOTE_STATUSES, { message: `must be one of ${QUOTE_STATUSES.join(', ')}` })
  status?: QuoteStatus;
}
