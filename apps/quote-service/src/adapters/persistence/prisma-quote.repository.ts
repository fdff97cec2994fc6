import { Injectable } from '@nestjs/common';
import { findAsset, type CursorPosition, type QuoteStatus } from '@pfs/contracts';
import { batchedReads, decimalColumn, inKeyOrder, isRequiredRowMissing, newestFirstPage, Prisma, PrismaTransactionHost, requireRow } from '@pfs/persistence';
import { QuoteRepository } from '../../application/ports/quote.repository';
import { Quote } from '../../domain/quote';
import { QuoteChangedError } from '../../domain/quote-errors';

type QuoteRow = Prisma.QuoteGetPayload<object>;

/** A row as the hot path's raw statements read it: the model's fields, amounts as decimal text. */
type RawQuoteRow = Omit<QuoteRow, 'fromAmount' | 'toAmount' | 'fee'> & { fromAmount: string; toAmount: string; fee: string };

// The execute path reads a quote on every call: a raw statement spares Prisma's query compiler.
const SELECT_QUOTE = Prisma.sql`SELECT id, organization_id AS "organizationId", account_id AS "accountId", from_asset AS "fromAsset",
  to_asset AS "toAsset", from_amount::text AS "fromAmount", to_amount::text AS "toAmount", fee::text AS fee, applied_rate AS "appliedRate",
  spread_bps AS "spreadBps", referrer_share_bps AS "referrerShareBps", status, transaction_id AS "transactionId",
  failure_reason AS "failureReason", expires_at AS "expiresAt", created_at AS "createdAt", updated_at AS "updatedAt"
  FROM "quote"."quotes"`;

/** Quotes in `quote.quotes`; amounts as numeric, read back into big.js through their decimal text. */
@Injectable()
export class PrismaQuoteRepository extends QuoteRepository {
  // Every execute reads its quote first: the executes that arrive together share one statement.
  private readonly reads = batchedReads((ids: readonly string[]) => this.readQuotes(ids), () => this.host.inTransaction);

  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  async insert(quote: Quote): Promise<void> {
    const q = quote.props;
    // Deferred in a write-only unit: the quote goes with the command log's claim and result.
    await this.host.write({
      ctes: (prefix) => [
        Prisma.sql`${Prisma.raw(prefix)} AS (INSERT INTO "quote"."quotes" (id, organization_id, account_id, from_asset, to_asset, from_amount,
          to_amount, fee, applied_rate, spread_bps, referrer_share_bps, status, transaction_id, failure_reason, expires_at, created_at, updated_at)
          VALUES (${q.id}, ${q.organizationId}, ${q.accountId}, ${q.fromAsset}, ${q.toAsset}, ${q.terms.fromAmount.toFixed()}::numeric,
            ${q.terms.toAmount.toFixed()}::numeric, ${q.terms.fee.toFixed()}::numeric, ${q.terms.appliedRate}, ${q.pricing.spreadBps},
            ${q.pricing.referrerShareBps}, ${q.status}, ${q.transactionId}, ${q.failureReason}, ${q.expiresAt}, ${q.createdAt}, ${q.updatedAt}))`,
      ],
    });
  }

  findById(quoteId: string): Promise<Quote | null> {
    return this.reads(quoteId);
  }

  private async readQuotes(ids: readonly string[]): Promise<Array<Quote | null>> {
    const rows = await this.host.query<RawQuoteRow>(Prisma.sql`${SELECT_QUOTE} WHERE id = ANY(${ids}::text[])`);
    return inKeyOrder(ids, rows, (row) => row.id).map((row) => (row ? this.toQuote(row) : null));
  }

  async update(quote: Quote, expected: QuoteStatus): Promise<boolean> {
    return (await this.host.client.$executeRaw(guardedUpdate(quote, expected))) === 1;
  }

  async replace(quote: Quote, expected: QuoteStatus): Promise<void> {
    await this.host.write({
      ctes: (prefix) => [Prisma.sql`${Prisma.raw(prefix)} AS (${guardedUpdate(quote, expected)} RETURNING id)`],
      // No row: the status changed meanwhile, and the whole statement (the command's result with it) is refused.
      returning: (prefix) => requireRow(Prisma.raw(prefix)),
      refusal: (error) => (isRequiredRowMissing(error) ? new QuoteChangedError(quote.id) : undefined),
    });
  }

  async list(organizationId: string, filters: { status?: QuoteStatus }, now: Date, after: CursorPosition | null, limit: number): Promise<Quote[]> {
    const page = newestFirstPage(after, limit);
    const rows = await this.host.client.quote.findMany({ where: { AND: [{ organizationId }, statusAt(filters.status, now), page.where] }, orderBy: page.orderBy, take: page.take });
    return rows.map((row) => this.toQuote(row));
  }

  async findDue(now: Date, limit: number, organizationId?: string): Promise<Quote[]> {
    // The (status, expires_at) index serves both: the sweeper's pass and one organization's list.
    const rows = await this.host.client.quote.findMany({
      where: { status: 'PENDING', expiresAt: { lte: now }, ...(organizationId === undefined ? {} : { organizationId }) },
      orderBy: [{ expiresAt: 'asc' }, { id: 'asc' }],
      take: limit,
    });
    return rows.map((row) => this.toQuote(row));
  }

  private toQuote(row: QuoteRow | RawQuoteRow): Quote {
    return Quote.restore({
      id: row.id,
      organizationId: row.organizationId,
      accountId: row.accountId,
      fromAsset: row.fromAsset,
      toAsset: row.toAsset,
      terms: { fromAmount: decimalColumn(row.fromAmount), toAmount: decimalColumn(row.toAmount), fee: decimalColumn(row.fee), appliedRate: row.appliedRate },
      pricing: { spreadBps: row.spreadBps, referrerShareBps: row.referrerShareBps, feeScale: feeScaleOf(row.fromAsset) },
      status: row.status as QuoteStatus,
      transactionId: row.transactionId,
      failureReason: row.failureReason,
      expiresAt: row.expiresAt,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    });
  }
}

/** The status filter as readers see statuses at `now`: a stored PENDING past its expiry is EXPIRED. */
function statusAt(status: QuoteStatus | undefined, now: Date): Prisma.QuoteWhereInput {
  if (status === 'PENDING') return { status: 'PENDING', expiresAt: { gt: now } };
  if (status === 'EXPIRED') return { OR: [{ status: 'EXPIRED' }, { status: 'PENDING', expiresAt: { lte: now } }] };
  return status ? { status } : {};
}

function feeScaleOf(asset: string): number {
  return findAsset(asset)?.scale ?? 18;
}

/** The quote's new state, stored only over the status it was decided from. */
function guardedUpdate(quote: Quote, expected: QuoteStatus): Prisma.Sql {
  const q = quote.props;
  return Prisma.sql`UPDATE "quote"."quotes"
    SET status = ${q.status}, transaction_id = ${q.transactionId}, failure_reason = ${q.failureReason}, updated_at = ${q.updatedAt}
    WHERE id = ${q.id} AND status = ${expected}`;
}
