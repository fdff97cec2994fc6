import { Injectable } from '@nestjs/common';
import { DomainError } from '@pfs/contracts';
import { isUniqueViolation, PrismaTransactionHost } from '@pfs/persistence';
import { FundingMethodRepository, type OwnedFundingMethod } from '../../application/ports/funding-method.repository';
import type { FundingMethod } from '../../domain/account';
import { FUNDING_METHOD_LISTING_ORDER, toFundingMethod } from './funding-method.mapper';

@Injectable()
export class PrismaFundingMethodRepository extends FundingMethodRepository {
  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  async listForAsset(accountId: string, asset: string): Promise<FundingMethod[]> {
    const rows = await this.host.client.ledgerFundingMethod.findMany({ where: { accountId, asset }, orderBy: FUNDING_METHOD_LISTING_ORDER });
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
