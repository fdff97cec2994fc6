import type { Big } from '@pfs/contracts';
import { catalogAsset, nonNegativeAmount, positiveAmount } from './amounts';
import { LedgerRequestError } from './ledger-errors';

/** A trade as the quote service priced it, checked: what the ledger posts. */
export interface TradeTerms {
  fromAsset: string;
  fromAmount: Big;
  toAsset: string;
  toAmount: Big;
  /** The spread fee in `fromAsset`, part of `fromAmount`. */
  fee: Big;
  /** The part of the fee owed to the client's creator or referrer, in `fromAsset`. */
  commission: Big;
}

/**
 * Catalog assets on both sides, different; amounts within each asset's scale; the fee within
 * what the client sells and the commission within the fee. Otherwise `invalid_request` naming
 * the field: the quote service computes these, so a refusal here is a pricing bug, never rounding.
 */
export function tradeTerms(input: { fromAsset: string; fromAmount: string; toAsset: string; toAmount: string; fee: string; commission: string }): TradeTerms {
  const from = catalogAsset(input.fromAsset, 'fromAsset');
  const to = catalogAsset(input.toAsset, 'toAsset');
  if (from.code === to.code) throw new LedgerRequestError(`toAsset: a trade exchanges two different assets; both sides are ${from.code}.`);
  const fromAmount = positiveAmount(input.fromAmount, from, 'fromAmount');
  const toAmount = positiveAmount(input.toAmount, to, 'toAmount');
  const fee = nonNegativeAmount(input.fee, from, 'fee');
  const commission = nonNegativeAmount(input.commission, from, 'commission');
  if (fee.gt(fromAmount)) throw new LedgerRequestError(`fee: ${fee.toFixed()} ${from.code} is more than fromAmount ${fromAmount.toFixed()}.`);
  if (commission.gt(fee)) throw new LedgerRequestError(`commission: ${commission.toFixed()} ${from.code} is more than the fee ${fee.toFixed()}.`);
  return { fromAsset: from.code, fromAmount, toAsset: to.code, toAmount, fee, commission };
}
