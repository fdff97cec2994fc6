import type { FundingMethod } from '../../domain/account';

/** A funding method with the organization that owns its account. */
export interface OwnedFundingMethod {
  method: FundingMethod;
  organizationId: string;
}

export abstract class FundingMethodRepository {
  /** The account's methods for one asset, in listing order (compareFundingMethods). */
  abstract listForAsset(accountId: string, asset: string): Promise<FundingMethod[]>;
  abstract insertAll(methods: readonly FundingMethod[]): Promise<void>;
  abstract findById(fundingMethodId: string): Promise<OwnedFundingMethod | null>;
}
