import { Big, roundDown, type QuoteStatus } from '@pfs/contracts';
import { QuoteAlreadyUsedError } from './quote-errors';
import type { QuoteTerms } from './quote-pricing';

export type { QuoteStatus };

/** Spec 3 and 4.7: a quote expires five minutes after creation. */
export const QUOTE_LIFETIME_MS = 5 * 60 * 1000;

/** The pricing in force when the quote was made: a later tier change never reprices it. */
export interface QuotePricing {
  spreadBps: number;
  /** Share of the fee credited to the client's creator, or else its referrer (api-decisions §6). */
  referrerShareBps: number;
  feeScale: number;
}

export interface QuoteProps {
  id: string;
  organizationId: string;
  accountId: string;
  fromAsset: string;
  toAsset: string;
  terms: QuoteTerms;
  pricing: QuotePricing;
  status: QuoteStatus;
  /** The trade's transaction once executed. */
  transactionId: string | null;
  failureReason: string | null;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * An exchange quote (spec 2.6). Moves: created PENDING; PENDING → COMPLETED (executed),
 * PENDING → EXPIRED (past `expiresAt`, once the ledger has said it holds no trade for it),
 * PENDING → FAILED (the account can no longer trade), EXPIRED → COMPLETED (a trade posted in
 * time, recorded late). Only a PENDING quote before its expiry can be executed, once.
 *
 * The ledger never posts a quote's trade after `expiresAt` (the post's deadline is the expiry),
 * so once the quote has expired whether it was traded is settled, and the ledger's answer to
 * that question is final: a PENDING quote past its expiry is due for that question.
 */
export class Quote {
  private constructor(readonly props: Readonly<QuoteProps>) {}

  static create(input: { id: string; organizationId: string; accountId: string; fromAsset: string; toAsset: string; terms: QuoteTerms; pricing: QuotePricing; now: Date }): Quote {
    const { now, ...rest } = input;
    return new Quote({ ...rest, status: 'PENDING', transactionId: null, failureReason: null, expiresAt: new Date(now.getTime() + QUOTE_LIFETIME_MS), createdAt: now, updatedAt: now });
  }

  static restore(props: QuoteProps): Quote {
    return new Quote(props);
  }

  get id(): string {
    return this.props.id;
  }

  get createdAt(): Date {
    return this.props.createdAt;
  }

  isVisibleTo(organizationId: string): boolean {
    return this.props.organizationId === organizationId;
  }

  /** What the stored status implies at `now`: a PENDING quote past its expiry can no longer be executed. */
  statusAt(now: Date): QuoteStatus {
    return this.props.status === 'PENDING' && now.getTime() >= this.props.expiresAt.getTime() ? 'EXPIRED' : this.props.status;
  }

  /** PENDING past its expiry: it ends COMPLETED or EXPIRED, as the ledger answers whether it holds its trade. */
  isDue(now: Date): boolean {
    return this.statusAt(now) !== this.props.status;
  }

  /** EXPIRED stored, if due (see isDue): for when the ledger holds no trade for the quote. */
  expireIfDue(now: Date): Quote {
    return this.isDue(now) ? this.moveTo('EXPIRED', now) : this;
  }

  /** `quote_already_used` once COMPLETED or FAILED: a quote is used at most once. */
  assertUnused(): void {
    if (this.props.status === 'COMPLETED' || this.props.status === 'FAILED') throw new QuoteAlreadyUsedError(this.id, this.props.status);
  }

  /**
   * Executed: its trade is `transactionId`. Also from EXPIRED, for a trade the ledger posted
   * before the quote expired while this service failed to record it (the trade is what happened).
   */
  complete(transactionId: string, now: Date): Quote {
    if (this.props.status !== 'PENDING' && this.props.status !== 'EXPIRED') throw new QuoteAlreadyUsedError(this.id, this.props.status);
    return new Quote({ ...this.props, status: 'COMPLETED', transactionId, updatedAt: now });
  }

  fail(reason: string, now: Date): Quote {
    if (this.props.status !== 'PENDING') throw new QuoteAlreadyUsedError(this.id, this.props.status);
    return new Quote({ ...this.props, status: 'FAILED', failureReason: reason, updatedAt: now });
  }

  /** The creator's or referrer's share of the fee, rounded down at the fee asset's scale: the platform keeps the remainder. */
  commission(): Big {
    return roundDown(this.props.terms.fee.times(this.props.pricing.referrerShareBps).div(10000), this.props.pricing.feeScale);
  }

  private moveTo(status: QuoteStatus, now: Date): Quote {
    return new Quote({ ...this.props, status, updatedAt: now });
  }
}
