import { findAsset, toAmountString, type QuoteView } from '@pfs/contracts';
import type { Quote } from '../domain/quote';

function scaleOf(code: string): number {
  return findAsset(code)?.scale ?? 18;
}

/** Spec 2.6 as of `now`: amounts at their asset's scale, the spread null when no fee applied, a PENDING quote past its expiry EXPIRED. */
export function presentQuote(quote: Quote, now: Date): QuoteView {
  const q = quote.props;
  return {
    object: 'quote',
    quoteId: q.id,
    accountId: q.accountId,
    fromAsset: q.fromAsset,
    toAsset: q.toAsset,
    fromAmount: toAmountString(q.terms.fromAmount, scaleOf(q.fromAsset)),
    toAmount: toAmountString(q.terms.toAmount, scaleOf(q.toAsset)),
    appliedRate: q.terms.appliedRate,
    spread: q.terms.fee.gt(0) ? { fee: toAmountString(q.terms.fee, scaleOf(q.fromAsset)), asset: q.fromAsset } : null,
    status: quote.statusAt(now),
    transactionId: q.transactionId,
    failureReason: q.failureReason,
    expiresAt: q.expiresAt.toISOString(),
    createdAt: q.createdAt.toISOString(),
  };
}
