import { Prisma } from '@pfs/persistence';
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

/**
 * The methods of the account aliased `a` in the surrounding query (only those matching `filter`,
 * e.g. one asset), as one JSON array in listing order: an account and its methods in one round trip.
 */
export function fundingMethodsJson(filter: Prisma.Sql = Prisma.empty): Prisma.Sql {
  return Prisma.sql`COALESCE((SELECT json_agg(json_build_object('id', f.id, 'accountId', f.account_id, 'asset', f.asset, 'type', f.type,
      'chainName', f.chain_name, 'address', f.address, 'bank', f.bank, 'createdAt', f.created_at)
      ORDER BY f.created_at, f.asset, f.chain_name NULLS FIRST, f.id)
    FROM "ledger"."funding_methods" f WHERE f.account_id = a.id ${filter}), '[]'::json)`;
}

/** One method of fundingMethodsJson's array (JSON carries its time as text). */
export type FundingMethodJson = Omit<FundingMethodRecord, 'createdAt'> & { createdAt: string };

export function fromFundingMethodJson(json: FundingMethodJson): FundingMethod {
  return toFundingMethod({ ...json, createdAt: new Date(json.createdAt) });
}
