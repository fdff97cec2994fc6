import { Injectable } from '@nestjs/common';
import { Big, type CursorPosition } from '@pfs/contracts';
import { isUniqueViolation, PrismaTransactionHost, type Prisma } from '@pfs/persistence';
import { AccountRepository } from '../../application/ports/account.repository';
import { Account, type AccountStatus, type FundingMethod } from '../../domain/account';

const WITH_DETAILS = { balances: { orderBy: { asset: 'asc' } } } satisfies Prisma.LedgerAccountInclude;
type AccountRow = Prisma.LedgerAccountGetPayload<{ include: typeof WITH_DETAILS }>;
type FundingMethodRow = Prisma.LedgerFundingMethodGetPayload<object>;

@Injectable()
export class PrismaAccountRepository extends AccountRepository {
  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  async findById(accountId: string): Promise<Account | null> {
    const db = this.host.client;
    const [row, methods] = await Promise.all([
      db.ledgerAccount.findUnique({ where: { id: accountId }, include: WITH_DETAILS }),
      db.ledgerFundingMethod.findMany({ where: { accountId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    ]);
    return row ? toAccount(row, methods) : null;
  }

  async listByOrganization(organizationId: string, after: CursorPosition | null, limit: number): Promise<Account[]> {
    const db = this.host.client;
    const keyset: Prisma.LedgerAccountWhereInput = after
      ? {
          OR: [
            { createdAt: { lt: new Date(after.createdAt) } },
            { createdAt: new Date(after.createdAt), id: { lt: after.id } },
          ],
        }
      : {};
    const rows = await db.ledgerAccount.findMany({
      where: { organizationId, ...keyset },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit,
      include: WITH_DETAILS,
    });
    const methods = rows.length
      ? await db.ledgerFundingMethod.findMany({
          where: { accountId: { in: rows.map((row) => row.id) } },
          orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
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
}

function toAccount(row: AccountRow, methods: FundingMethodRow[]): Account {
  return new Account(
    row.id,
    row.organizationId,
    row.name,
    row.description,
    row.isPrimary,
    row.status as AccountStatus,
    row.balances.map((balance) => ({ asset: balance.asset, amount: new Big(balance.amount.toFixed()) })),
    methods.map(
      (method): FundingMethod => ({
        id: method.id,
        accountId: method.accountId,
        asset: method.asset,
        type: method.type as FundingMethod['type'],
        chainName: method.chainName,
        address: method.address,
        bank: method.bank as FundingMethod['bank'],
        createdAt: method.createdAt,
      }),
    ),
    row.createdAt,
    row.updatedAt,
  );
}
