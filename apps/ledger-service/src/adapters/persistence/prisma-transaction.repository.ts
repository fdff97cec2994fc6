import { Injectable } from '@nestjs/common';
import { Big, type CursorPosition, type PayoutDestinationView, type TransactionRole, type TransactionStatus, type TransactionType } from '@pfs/contracts';
import { batchedReads, decimalColumn, isUniqueViolation, newestFirstPage, Prisma, PrismaTransactionHost } from '@pfs/persistence';
import { TransactionRepository, type TransactionFilters } from '../../application/ports/transaction.repository';
import { QuoteAlreadyTradedError } from '../../domain/ledger-errors';
import { Transaction } from '../../domain/transaction';
import { overflowRefusal } from './refuse-overflow';

type TransactionRow = Prisma.LedgerTransactionGetPayload<object>;

/** A row as the raw reads return it: the model's fields, amounts as decimal text. */
type RawTransactionRow = Omit<TransactionRow, 'amount' | 'fee'> & { amount: string; fee: string | null };

// Every trade reads its quote's rows and every status change its transaction: raw statements
// spare Prisma's query compiler, and a lock and its read are one statement.
const SELECT_TRANSACTION = Prisma.sql`SELECT id, organization_id AS "organizationId", account_id AS "accountId", type, status, role, asset,
  amount::text AS amount, chain_name AS "chainName", beneficiary_id AS "beneficiaryId", quote_id AS "quoteId", fee::text AS fee,
  fee_asset AS "feeAsset", counterparty_organization_id AS "counterpartyOrganizationId", reference, failure_reason AS "failureReason",
  destination, created_at AS "createdAt", updated_at AS "updatedAt"
  FROM "ledger"."transactions"`;

@Injectable()
export class PrismaTransactionRepository extends TransactionRepository {
  // Every trade reads its quote's transactions first: the trades that arrive together share one statement.
  private readonly byQuote = batchedReads((quoteIds: readonly string[]) => this.readByQuotes(quoteIds), () => this.host.inTransaction);

  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  async insert(transaction: Transaction): Promise<void> {
    // On every money command: raw SQL spares the query compiler's work on the hot path.
    await this.host.write({
      ctes: (prefix) => [Prisma.sql`${Prisma.raw(prefix)} AS (${insertStatement(transaction)})`],
      refusal: (error) => {
        // The unique (quote_id, type): a quote traded meanwhile. The violation is raised only once
        // the other insert has committed (a rolled-back one lets this one through).
        if (transaction.props.quoteId && isUniqueViolation(error, 'transactions_quote_id_type_key')) return new QuoteAlreadyTradedError(transaction.props.quoteId);
        // Only when its own amounts are too large: the statement may carry a balance that overflows.
        return fitsTheLedger(transaction) ? undefined : overflowRefusal(error);
      },
    });
  }

  findByQuote(quoteId: string): Promise<Transaction[]> {
    return this.byQuote(quoteId);
  }

  /** Each quote's transactions, by id; on the driver outside a transaction (the columns read the same both ways). */
  private async readByQuotes(quoteIds: readonly string[]): Promise<Transaction[][]> {
    const rows = await this.host.query<RawTransactionRow>(Prisma.sql`${SELECT_TRANSACTION} WHERE quote_id = ANY(${quoteIds}::text[]) ORDER BY id`);
    return quoteIds.map((quoteId) => rows.filter((row) => row.quoteId === quoteId).map(toTransaction));
  }

  async findById(transactionId: string): Promise<Transaction | null> {
    const [row] = await this.host.client.$queryRaw<RawTransactionRow[]>`${SELECT_TRANSACTION} WHERE id = ${transactionId}`;
    return row ? toTransaction(row) : null;
  }

  async findByIdForUpdate(transactionId: string): Promise<Transaction | null> {
    const [row] = await this.host.client.$queryRaw<RawTransactionRow[]>`${SELECT_TRANSACTION} WHERE id = ${transactionId} FOR UPDATE`;
    return row ? toTransaction(row) : null;
  }

  async findPayoutsDue(changedBy: Date, limit: number): Promise<string[]> {
    const rows = await this.host.client.ledgerTransaction.findMany({
      where: { type: { in: ['FIAT_PAYOUT', 'CRYPTO_PAYOUT'] }, status: { in: ['EXPECTED', 'LOCKED'] }, updatedAt: { lte: changedBy } },
      orderBy: [{ updatedAt: 'asc' }, { id: 'asc' }],
      take: limit,
      select: { id: true },
    });
    return rows.map((row) => row.id);
  }

  async saveStatus(transaction: Transaction): Promise<void> {
    const t = transaction.props;
    await this.host.client.ledgerTransaction.update({
      where: { id: t.id },
      data: { status: t.status, failureReason: t.failureReason, updatedAt: t.updatedAt },
    });
  }

  async list(organizationId: string, filters: TransactionFilters, after: CursorPosition | null, limit: number): Promise<Transaction[]> {
    const page = newestFirstPage(after, limit);
    const createdAt = {
      ...(filters.createdAfter ? { gte: filters.createdAfter } : {}),
      ...(filters.createdBefore ? { lte: filters.createdBefore } : {}),
    };
    const rows = await this.host.client.ledgerTransaction.findMany({
      where: {
        AND: [
          {
            organizationId,
            ...(filters.accountId ? { accountId: filters.accountId } : {}),
            ...(filters.type ? { type: filters.type } : {}),
            ...(filters.status ? { status: filters.status } : {}),
            ...(Object.keys(createdAt).length ? { createdAt } : {}),
          },
          page.where,
        ],
      },
      orderBy: page.orderBy,
      take: page.take,
    });
    return rows.map(toTransaction);
  }
}

/** numeric(38, 18): at most 20 digits before the decimal point. */
function fitsTheLedger(transaction: Transaction): boolean {
  const limit = new Big('1e20');
  return [transaction.props.amount, transaction.props.fee].every((value) => value === null || value.abs().lt(limit));
}

function insertStatement(transaction: Transaction): Prisma.Sql {
  const t = transaction.props;
  return Prisma.sql`
    INSERT INTO "ledger"."transactions" (id, organization_id, account_id, type, status, role, asset, amount, chain_name, beneficiary_id,
      quote_id, fee, fee_asset, counterparty_organization_id, reference, failure_reason, destination, created_at, updated_at)
    VALUES (${t.id}, ${t.organizationId}, ${t.accountId}, ${t.type}, ${t.status}, ${t.role}, ${t.asset}, ${t.amount.toFixed()}::numeric,
      ${t.chainName}, ${t.beneficiaryId}, ${t.quoteId}, ${t.fee?.toFixed() ?? null}::numeric, ${t.feeAsset}, ${t.counterpartyOrganizationId},
      ${t.reference}, ${t.failureReason}, ${t.destination === null ? null : JSON.stringify(t.destination)}::jsonb, ${t.createdAt}, ${t.updatedAt})`;
}

function toTransaction(row: TransactionRow | RawTransactionRow): Transaction {
  return Transaction.restore({
    id: row.id,
    organizationId: row.organizationId,
    accountId: row.accountId,
    type: row.type as TransactionType,
    status: row.status as TransactionStatus,
    role: row.role as TransactionRole,
    asset: row.asset,
    amount: decimalColumn(row.amount),
    chainName: row.chainName,
    beneficiaryId: row.beneficiaryId,
    quoteId: row.quoteId,
    fee: row.fee === null ? null : decimalColumn(row.fee),
    feeAsset: row.feeAsset,
    counterpartyOrganizationId: row.counterpartyOrganizationId,
    reference: row.reference,
    failureReason: row.failureReason,
    // Written by this adapter only, from the domain's own value.
    destination: row.destination as unknown as PayoutDestinationView | null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  });
}
