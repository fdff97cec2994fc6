import { Big } from '@pfs/contracts';

export type AccountStatus = 'ACTIVE' | 'SUSPENDED' | 'CLOSED';

export interface Balance {
  asset: string;
  amount: Big;
}

export interface BankDetails {
  bankName: string;
  accountNumber: string;
  routingNumber: string | null;
  iban: string | null;
  swiftCode: string | null;
  reference: string;
}

export type FundingMethodType = 'CRYPTO_ADDRESS' | 'BANK_ACCOUNT';

export interface FundingMethod {
  id: string;
  accountId: string;
  asset: string;
  type: FundingMethodType;
  chainName: string | null;
  address: string | null;
  bank: BankDetails | null;
  createdAt: Date;
}

/** An account of one organization; balances are derived from the journal, never set. */
export class Account {
  constructor(
    readonly id: string,
    readonly organizationId: string,
    readonly name: string,
    readonly description: string | null,
    readonly isPrimary: boolean,
    readonly status: AccountStatus,
    readonly balances: readonly Balance[],
    readonly fundingMethods: readonly FundingMethod[],
    readonly createdAt: Date,
    readonly updatedAt: Date,
  ) {}

  /** The account every organization gets when it is created. */
  static openPrimary(id: string, organizationId: string, now: Date): Account {
    return new Account(id, organizationId, 'Primary account', null, true, 'ACTIVE', [], [], now, now);
  }

  /** A further account the organization opens itself (POST /v1/accounts). */
  static open(id: string, organizationId: string, name: string, description: string | null, now: Date): Account {
    return new Account(id, organizationId, name, description, false, 'ACTIVE', [], [], now, now);
  }

  /** Renames the account or changes its description; `undefined` keeps a field as it is. */
  withDetails(details: { name?: string; description?: string | null }, now: Date): Account {
    return new Account(
      this.id,
      this.organizationId,
      details.name ?? this.name,
      details.description === undefined ? this.description : details.description,
      this.isPrimary,
      this.status,
      this.balances,
      this.fundingMethods,
      this.createdAt,
      now,
    );
  }

  belongsTo(organizationId: string): boolean {
    return this.organizationId === organizationId;
  }
}
