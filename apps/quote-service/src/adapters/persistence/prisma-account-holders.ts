import { Injectable } from '@nestjs/common';
import type { AccountStatus } from '@pfs/contracts';
import { batchedReads, inKeyOrder, Prisma, PrismaTransactionHost } from '@pfs/persistence';
import { AccountHolders } from '../../application/ports/account-holders';
import type { AccountHolder } from '../../application/ports/trading-terms-directory';

interface HolderRow {
  account_id: string;
  organization_id: string;
  status: string;
}

/** `quote.account_holders`: the ledger's answers about accounts, one row per account. */
@Injectable()
export class PrismaAccountHolders extends AccountHolders {
  // Read by every quote: those that arrive together share one statement.
  private readonly reads = batchedReads((ids: readonly string[]) => this.readHolders(ids), () => this.host.inTransaction);

  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  find(accountId: string): Promise<AccountHolder | undefined> {
    return this.reads(accountId);
  }

  private async readHolders(ids: readonly string[]): Promise<Array<AccountHolder | undefined>> {
    const rows = await this.host.query<HolderRow>(Prisma.sql`
      SELECT account_id, organization_id, status FROM "quote"."account_holders" WHERE account_id = ANY(${ids}::text[])`);
    return inKeyOrder(ids, rows, (row) => row.account_id).map(
      (row) => row && { accountId: row.account_id, organizationId: row.organization_id, status: row.status as AccountStatus },
    );
  }

  async remember(holder: AccountHolder): Promise<void> {
    // The holder never changes; the status is the ledger's latest answer.
    await this.host.client.$executeRaw`
      INSERT INTO "quote"."account_holders" AS a (account_id, organization_id, status, updated_at)
      VALUES (${holder.accountId}, ${holder.organizationId}, ${holder.status}, now())
      ON CONFLICT (account_id) DO UPDATE SET status = EXCLUDED.status, updated_at = now()
      WHERE a.status IS DISTINCT FROM EXCLUDED.status`;
  }
}
