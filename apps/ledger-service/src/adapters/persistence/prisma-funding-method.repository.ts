import { Injectable } from '@nestjs/common';
import { DomainError } from '@pfs/contracts';
import { isUniqueViolation, PrismaTransactionHost, type Prisma } from '@pfs/persistence';
import { FundingMethodRepository, type OwnedFundingMethod } from '../../application/ports/funding-method.repository';
import type { BankDetails, FundingMethod, FundingMethodType } from '../../domain/account';

type FundingMethodRow = Prisma.LedgerFundingMethodGetPayload<object>;

/** Listing order of compareFundingMethods; bank methods (no chain) first within an asset. */
const LISTING_ORDER: Prisma.LedgerFundingMethodOrderByWithRelationInput[] = [
  { createdAt: 'asc' },
  { asset: 'asc' },
  { chainName: { sort: 'asc', nulls: 'first' } },
  { id: 'asc' },
];

@Injectable()
export class PrismaFundingMethodRepository extends FundingMethodRepository {
  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  async listForAsset(accountId: string, asset: string): Promise<FundingMethod[]> {
    const rows = await this.host.client.ledgerFundingMethod.findMany({ where: { accountId, asset }, orderBy: LISTING_ORDER });
    return rows.map(toFundingMethod);
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

function toFundingMethod(row: FundingMethodRow): FundingMethod {
  return {
    id: row.id,
    accountId: row.accountId,
    asset: row.asset,
    type: row.type as FundingMethodType,
    chainName: row.chainName,
    address: row.address,
    bank: row.bank as BankDetails | null,
    createdAt: row.createdAt,
  };
}
