import { FundingMethodRepository, type DepositTarget, type OwnedFundingMethod } from '../../../src/application/ports/funding-method.repository';
import type { FundingMethod } from '../../../src/domain/account';
import { compareFundingMethods } from '../../../src/domain/funding-method-provisioning';
import type { InMemoryAccountRepository } from './in-memory-account.repository';

/** The FundingMethodRepository contract over an array; the owner is read from the accounts in memory. */
export class InMemoryFundingMethodRepository extends FundingMethodRepository {
  readonly methods: FundingMethod[] = [];

  constructor(private readonly accounts: InMemoryAccountRepository) {
    super();
  }

  async listForAsset(accountId: string, asset: string): Promise<FundingMethod[]> {
    return this.methods.filter((method) => method.accountId === accountId && method.asset === asset).sort(compareFundingMethods);
  }

  async findDepositTarget(accountId: string, asset: string): Promise<DepositTarget | null> {
    const account = await this.accounts.findOwnership(accountId);
    return account ? { ...account, methods: await this.listForAsset(accountId, asset) } : null;
  }

  async insertAll(methods: readonly FundingMethod[]): Promise<void> {
    for (const method of methods) {
      if (this.methods.some((stored) => stored.id === method.id)) throw new Error(`duplicate funding method ${method.id}`);
    }
    this.methods.push(...methods);
  }

  async findById(fundingMethodId: string): Promise<OwnedFundingMethod | null> {
    const method = this.methods.find((stored) => stored.id === fundingMethodId);
    const account = method ? await this.accounts.findById(method.accountId) : null;
    return method && account ? { method, organizationId: account.organizationId } : null;
  }
}
