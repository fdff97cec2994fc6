import { Injectable } from '@nestjs/common';
import { Big, findAsset, type CursorPosition, type QuoteStatus } from '@pfs/contracts';
import { newestFirstPage, PrismaTransactionHost, type Prisma } from '@pfs/persistence';
import { QuoteRepository } from '../../application/ports/quote.repository';
import { Quote } from '../../domain/quote';

type QuoteRow = Prisma.QuoteGetPayload<object>;

/** Quotes in `quote.quotes`; amounts as numeric, read back into big.js through their decimal text. */
@Injectable()
export class PrismaQuoteRepository extends QuoteRepository {
  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  async insert(quote: Quote): Promise<void> {
    const q = quote.props;
    await this.host.client.quote.create({
      data: {
        id: q.id,
        organizationId: q.organizationId,
        accountId: q.accountId,
        fromAsset: q.fromAsset,
        toAsset: q.toAsset,
        fromAmount: q.terms.fromAmount.toFixed(),
        toAmount: q.terms.toAmount.toFixed(),
        fee: q.terms.fee.toFixed(),
        appliedRate: q.terms.appliedRate,
        spreadBps: q.pricing.spreadBps,
        referrerShareBps: q.pricing.referrerShareBps,
        status: q.status,
        transactionId: q.transactionId,
        failureReason: q.failureReason,
        expiresAt: q.expiresAt,
        createdAt: q.createdAt,
        updatedAt: q.updatedAt,
      },
    });
  }

  async findById(quoteId: string): Promise<Quote | null> {
    const row = await this.host.client.quote.findUnique({ where: { id: quoteId } });
    return row ? this.toQuote(row) : null;
  }

  async findByIdForUpdate(quoteId: string): Promise<Quote | null> {
    // Prisma has no SELECT … FOR UPDATE: lock first, then read the row through the model.
    await this.host.client.$queryRaw`SELECT id FROM "quote"."quotes" WHERE id = ${quoteId} FOR UPDATE`;
    return this.findById(quoteId);
  }

  async update(quote: Quote, expected: QuoteStatus): Promise<boolean> {
    const q = quote.props;
    const { count } = await this.host.client.quote.updateMany({
      where: { id: q.id, status: expected },
      data: { status: q.status, transactionId: q.transactionId, failureReason: q.failureReason, updatedAt: q.updatedAt },
    });
    return count === 1;
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

  private toQuote(row: QuoteRow): Quote {
    return Quote.restore({
      id: row.id,
      organizationId: row.organizationId,
      accountId: row.accountId,
      fromAsset: row.fromAsset,
      toAsset: row.toAsset,
      terms: { fromAmount: new Big(row.fromAmount.toFixed()), toAmount: new Big(row.toAmount.toFixed()), fee: new Big(row.fee.toFixed()), appliedRate: row.appliedRate },
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
