import { Injectable } from '@nestjs/common';
import { Big, type CursorPosition } from '@pfs/contracts';
import { batchedReads, inKeyOrder, isUniqueViolation, newestFirstPage, Prisma, PrismaTransactionHost } from '@pfs/persistence';
import { AccountRepository } from '../../application/ports/account.repository';
import { Account, type AccountStatus } from '../../domain/account';
import { fromFundingMethodJson, FUNDING_METHOD_LISTING_ORDER, fundingMethodsJson, toFundingMethod, type FundingMethodJson, type FundingMethodRecord } from './funding-method.mapper';

const WITH_DETAILS = { balances: { orderBy: { asset: 'asc' } } } satisfies Prisma.LedgerAccountInclude;
type AccountRow = Prisma.LedgerAccountGetPayload<{ include: typeof WITH_DETAILS }>;

interface AccountReadRow {
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  is_primary: boolean;
  status: string;
  created_at: Date;
  updated_at: Date;
  balances: Array<{ asset: string; amount: string }>;
  funding_methods: FundingMethodJson[];
}

interface AccountLockRow {
  organization_id: string;
}

@Injectable()
export class PrismaAccountRepository extends AccountRepository {
  // The hot reads (GET /v1/accounts/{id}, every money command and quote): those that arrive together share one statement.
  private readonly accounts = batchedReads((ids: readonly string[]) => this.readAccounts(ids), () => this.host.inTransaction);
  private readonly ownerships = batchedReads((ids: readonly string[]) => this.readOwnerships(ids), () => this.host.inTransaction);

  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  findById(accountId: string): Promise<Account | null> {
    return this.accounts(accountId);
  }

  /**
   * The hot read path (GET /v1/accounts/{id}): one round trip for the accounts, their balances
   * and their funding methods, instead of three model queries; each account in `ids`' order, or null.
   */
  private async readAccounts(ids: readonly string[]): Promise<Array<Account | null>> {
    const rows = await this.host.query<AccountReadRow>(Prisma.sql`
      SELECT a.id, a.organization_id, a.name, a.description, a.is_primary, a.status, a.created_at, a.updated_at,
        COALESCE((SELECT json_agg(json_build_object('asset', b.asset, 'amount', b.amount::text) ORDER BY b.asset)
                  FROM "ledger"."balances" b WHERE b.account_id = a.id), '[]'::json) AS balances,
        ${fundingMethodsJson()} AS funding_methods
      FROM "ledger"."accounts" a WHERE a.id = ANY(${ids}::text[])`);
    return inKeyOrder(ids, rows, (row) => row.id).map((row) => {
      if (!row) return null;
      return new Account(
        row.id,
        row.organization_id,
        row.name,
        row.description,
        row.is_primary,
        row.status as AccountStatus,
        row.balances.map((balance) => ({ asset: balance.asset, amount: new Big(balance.amount) })),
        row.funding_methods.map(fromFundingMethodJson),
        row.created_at,
        row.updated_at,
      );
    });
  }

  async listByOrganization(organizationId: string, after: CursorPosition | null, limit: number): Promise<Account[]> {
    const db = this.host.client;
    const page = newestFirstPage(after, limit);
    const rows = await db.ledgerAccount.findMany({
      where: { organizationId, ...page.where },
      orderBy: page.orderBy,
      take: page.take,
      include: WITH_DETAILS,
    });
    const methods = rows.length
      ? await db.ledgerFundingMethod.findMany({
          where: { accountId: { in: rows.map((row) => row.id) } },
          orderBy: FUNDING_METHOD_LISTING_ORDER,
        })
      : [];
    return rows.map((row) => toAccount(row, methods.filter((method) => method.accountId === row.id)));
  }

  async openIfAbsent(account: Account): Promise<boolean> {
    try {
      const created = await this.host.client.ledgerAccount.createMany({
        data: [
          {
            id: account.id,
            organizationId: account.organizationId,
            name: account.name,
            description: account.description,
            isPrimary: account.isPrimary,
            status: account.status,
            createdAt: account.createdAt,
            updatedAt: account.updatedAt,
          },
        ],
        skipDuplicates: true,
      });
      return created.count === 1;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  findOwnership(accountId: string): Promise<{ organizationId: string; status: AccountStatus } | null> {
    return this.ownerships(accountId);
  }

  /** On every money command and quote: raw SQL spares the query compiler's work on the hot path. */
  private async readOwnerships(ids: readonly string[]): Promise<Array<{ organizationId: string; status: AccountStatus } | null>> {
    const rows = await this.host.query<{ id: string; organization_id: string; status: string }>(Prisma.sql`
      SELECT id, organization_id, status FROM "ledger"."accounts" WHERE id = ANY(${ids}::text[])`);
    return inKeyOrder(ids, rows, (row) => row.id).map((row) => (row ? { organizationId: row.organization_id, status: row.status as AccountStatus } : null));
  }

  async saveDetails(account: Account): Promise<void> {
    await this.host.client.ledgerAccount.update({
      where: { id: account.id },
      data: { name: account.name, description: account.description, updatedAt: account.updatedAt },
    });
  }

  async findPrimaryId(organizationId: string): Promise<string | null> {
    // On every trade that pays a commission: raw SQL spares the query compiler.
    const rows = await this.host.query<{ id: string }>(Prisma.sql`
      SELECT id FROM "ledger"."accounts" WHERE organization_id = ${organizationId} AND is_primary LIMIT 1`);
    return rows[0]?.id ?? null;
  }

  async lockOwner(accountId: string): Promise<string | null> {
    const rows = await this.host.client.$queryRaw<AccountLockRow[]>`
      SELECT organization_id FROM "ledger"."accounts" WHERE id = ${accountId} FOR UPDATE`;
    return rows[0]?.organization_id ?? null;
  }
}

function toAccount(row: AccountRow, methods: FundingMethodRecord[]): Account {
  return new Account(
    row.id,
    row.organizationId,
    row.name,
    row.description,
    row.isPrimary,
    row.status as AccountStatus,
    row.balances.map((balance) => ({ asset: balance.asset, amount: new Big(balance.amount.toFixed()) })),
    methods.map(toFundingMethod),
    row.createdAt,
    row.updatedAt,
  );
}
