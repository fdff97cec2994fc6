import type { Prisma } from '@pfs/persistence';
import type { BankDetails, FundingMethod, FundingMethodType } from '../../domain/account';

/** Listing order of compareFundingMethods; bank methods (no chain) first within an asset. */
export const FUNDING_METHOD_LISTING_ORDER: Prisma.LedgerFundingMethodOrderByWithRelationInput[] = [
  { createdAt: 'asc' },
  { asset: 'asc' },
  { chainName: { sort: 'asc', nulls: 'first' } },
  { id: 'asc' },
];

/** A funding_methods row as Prisma reads it, or as the account read aggregates it in SQL. */
export interface FundingMethodRecord {
  id: string;
  accountId: string;
  asset: string;
  type: string;
  chainName: string | null;
  address: string | null;
  bank: unknown;
  createdAt: Date;
}

/** The one mapping from a stored funding method to the domain's, for every ledger repository. */
export function toFundingMethod(row: FundingMethodRecord): FundingMethod {
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
