import type { AccountStatus, FundingMethod } from '../../domain/account';

/** A funding method with the organization that owns its account. */
export interface OwnedFundingMethod {
  method: FundingMethod;
  organizationId: string;
}

/** An account as a deposit sees it: its owner, its status and its methods for one asset. */
export interface DepositTarget {
  organizationId: string;
  status: AccountStatus;
  /** In listing order (compareFundingMethods). */
  methods: FundingMethod[];
}

export abstract class FundingMethodRepository {
  /** The account's methods for one asset, in listing order (compareFundingMethods). */
  abstract listForAsset(accountId: string, asset: string): Promise<FundingMethod[]>;
  /** The account with its methods for one asset, in one read (the faucet's check); null for an unknown account. */
  abstract findDepositTarget(accountId: string, asset: string): Promise<DepositTarget | null>;
  abstract insertAll(methods: readonly FundingMethod[]): Promise<void>;
  abstract findById(fundingMethodId: string): Promise<OwnedFundingMethod | null>;
}
