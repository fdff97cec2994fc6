import { Injectable } from '@nestjs/common';
import { DomainError } from '@pfs/contracts';
import { isUniqueViolation, Prisma, PrismaTransactionHost, batchedReads } from '@pfs/persistence';
import { FundingMethodRepository, type DepositTarget, type OwnedFundingMethod } from '../../application/ports/funding-method.repository';
import type { AccountStatus, FundingMethod } from '../../domain/account';
import { fromFundingMethodJson, fundingMethodsJson, toFundingMethod, type FundingMethodJson, type FundingMethodRecord } from './funding-method.mapper';

@Injectable()
export class PrismaFundingMethodRepository extends FundingMethodRepository {
  // Faucet calls that arrive together share the read of their targets.
  private readonly depositTargets = batchedReads((targets: ReadonlyArray<{ accountId: string; asset: string }>) => this.readDepositTargets(targets), () => this.host.inTransaction);

  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  async listForAsset(accountId: string, asset: string): Promise<FundingMethod[]> {
    // Raw SQL, in the listing order of FUNDING_METHOD_LISTING_ORDER.
    const rows = await this.host.client.$queryRaw<FundingMethodRecord[]>`
      SELECT id, account_id AS "accountId", asset, type, chain_name AS "chainName", address, bank, created_at AS "createdAt"
      FROM "ledger"."funding_methods" WHERE account_id = ${accountId} AND asset = ${asset}
      ORDER BY created_at, asset, chain_name NULLS FIRST, id`;
    return rows.map(toFundingMethod);
  }

  findDepositTarget(accountId: string, asset: string): Promise<DepositTarget | null> {
    return this.depositTargets({ accountId, asset });
  }

  /** On every faucet call: the accounts and their methods for the asset in one round trip, in order (null: no such account). */
  private async readDepositTargets(targets: ReadonlyArray<{ accountId: string; asset: string }>): Promise<Array<DepositTarget | null>> {
    const rows = await this.host.query<{ position: number; organization_id: string; status: string; methods: FundingMethodJson[] }>(Prisma.sql`
      SELECT i.position::int AS position, a.organization_id, a.status, ${fundingMethodsJson(Prisma.sql`AND f.asset = i.asset`)} AS methods
      FROM unnest(${targets.map((target) => target.accountId)}::text[], ${targets.map((target) => target.asset)}::text[]) WITH ORDINALITY AS i(account_id, asset, position)
      JOIN "ledger"."accounts" a ON a.id = i.account_id`);
    const byPosition = new Map(rows.map((row) => [row.position, row]));
    return targets.map((_, index) => {
      const row = byPosition.get(index + 1);
      if (!row) return null;
      return { organizationId: row.organization_id, status: row.status as AccountStatus, methods: row.methods.map(fromFundingMethodJson) };
    });
  }

  async insertAll(methods: readonly FundingMethod[]): Promise<void> {
    try {
      await this.host.client.ledgerFundingMethod.createMany({
        data: methods.map((method) => ({
          id: method.id,
          accountId: method.accountId,
          asset: method.asset,
          type: method.type,
          chainName: method.chainName,
          address: method.address,
          bank: method.bank ? { ...method.bank } : undefined,
          createdAt: method.createdAt,
        })),
      });
    } catch (error) {
      // The account row lock serialises provisioning, so a second address for one chain means
      // the lock was bypassed; nothing was written and a retry provisions cleanly.
      if (isUniqueViolation(error)) throw new DomainError('internal_error', 'Funding methods were provisioned concurrently; retry the request.');
      throw error;
    }
  }

  async findById(fundingMethodId: string): Promise<OwnedFundingMethod | null> {
    const row = await this.host.client.ledgerFundingMethod.findUnique({ where: { id: fundingMethodId } });
    if (!row) return null;
    const account = await this.host.client.ledgerAccount.findUnique({ where: { id: row.accountId }, select: { organizationId: true } });
    return account ? { method: toFundingMethod(row), organizationId: account.organizationId } : null;
  }
}
