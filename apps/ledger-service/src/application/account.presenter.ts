import type { AccountView, FundingMethodView } from '@pfs/contracts';
import type { Account, FundingMethod } from '../domain/account';
import { findAsset, toAmountString } from '@pfs/contracts';

export function presentFundingMethod(method: FundingMethod): FundingMethodView {
  return {
    object: 'funding_method',
    fundingMethodId: method.id,
    accountId: method.accountId,
    asset: method.asset,
    type: method.type,
    chainName: method.chainName,
    address: method.address,
    bank: method.bank,
    createdAt: method.createdAt.toISOString(),
  };
}

export function presentAccount(account: Account): AccountView {
  return {
    object: 'account',
    accountId: account.id,
    name: account.name,
    description: account.description,
    isPrimary: account.isPrimary,
    status: account.status,
    fundingMethods: account.fundingMethods.map(presentFundingMethod),
    balances: account.balances.map((balance) => ({
      object: 'balance',
      asset: balance.asset,
      amount: toAmountString(balance.amount, findAsset(balance.asset)?.scale ?? 18),
    })),
    createdAt: account.createdAt.toISOString(),
    updatedAt: account.updatedAt.toISOString(),
  };
}
