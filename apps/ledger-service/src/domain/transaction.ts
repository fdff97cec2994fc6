import { Big, type PayoutDestinationView, type PayoutRail, type TransactionAction, type TransactionRole, type TransactionStatus, type TransactionType } from '@pfs/contracts';
import { customer, JournalEntry, platform, type JournalLineInput } from './journal-entry';
import { IllegalTransitionError } from './ledger-errors';
import type { TradeTerms } from './trade-terms';

/**
 * The state machine (spec §3, api-decisions §5): EXPECTED → LOCKED → COMPLETED | DECLINED,
 * EXPECTED → DECLINED, COMPLETED → REFUNDED. Nothing leaves DECLINED or REFUNDED.
 */
export const TRANSITIONS: Readonly<Record<TransactionAction, { from: readonly TransactionStatus[]; to: TransactionStatus }>> = {
  lock: { from: ['EXPECTED'], to: 'LOCKED' },
  complete: { from: ['LOCKED'], to: 'COMPLETED' },
  decline: { from: ['EXPECTED', 'LOCKED'], to: 'DECLINED' },
  refund: { from: ['COMPLETED'], to: 'REFUNDED' },
};

/** The actions that can move a transaction in this status (none once final). */
export function actionsFrom(status: TransactionStatus): TransactionAction[] {
  return (Object.keys(TRANSITIONS) as TransactionAction[]).filter((action) => TRANSITIONS[action].from.includes(status));
}

/** The transaction types whose money moves this ledger knows how to post. */
const PAYINS: readonly TransactionType[] = ['CRYPTO_PAYIN', 'FIAT_PAYIN'];
const PAYOUTS: readonly TransactionType[] = ['CRYPTO_PAYOUT', 'FIAT_PAYOUT'];
/** Posted complete in one entry and never moved again: a trade is undone by another trade, not a refund. */
const FINAL_ON_CREATION: readonly TransactionType[] = ['TRADE', 'COMMISSION', 'INTERNAL_TRANSFER'];

export interface TransactionProps {
  id: string;
  organizationId: string;
  accountId: string;
  type: TransactionType;
  status: TransactionStatus;
  role: TransactionRole;
  asset: string;
  amount: Big;
  chainName: string | null;
  beneficiaryId: string | null;
  quoteId: string | null;
  /** Charged on top of `amount`, in `feeAsset`; null when the type carries no fee. */
  fee: Big | null;
  feeAsset: string | null;
  counterpartyOrganizationId: string | null;
  reference: string | null;
  failureReason: string | null;
  /**
   * A payout's destination as it was at creation (null for every other type, and for payouts
   * created before destinations were kept): what its rail sends to, never looked up again.
   */
  destination: PayoutDestinationView | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A status change with the journal entry that moves its money (null when no money moves). */
export interface StatusChange {
  transaction: Transaction;
  previousStatus: TransactionStatus;
  entry: JournalEntry | null;
}

export class Transaction {
  private constructor(readonly props: Readonly<TransactionProps>) {}

  static restore(props: TransactionProps): Transaction {
    return new Transaction(props);
  }

  get id(): string {
    return this.props.id;
  }

  get status(): TransactionStatus {
    return this.props.status;
  }

  get organizationId(): string {
    return this.props.organizationId;
  }

  get createdAt(): Date {
    return this.props.createdAt;
  }

  /**
   * A crypto deposit the chain reports as final (the faucet simulates one): it is created and
   * completed in one step, EXPECTED → COMPLETED, and credited at once.
   */
  static settledCryptoDeposit(input: {
    id: string;
    organizationId: string;
    accountId: string;
    asset: string;
    amount: Big;
    chainName: string;
    journalId: string;
    now: Date;
  }): StatusChange {
    const expected = new Transaction({
      id: input.id,
      organizationId: input.organizationId,
      accountId: input.accountId,
      type: 'CRYPTO_PAYIN',
      status: 'EXPECTED',
      role: 'RECEIVER',
      asset: input.asset,
      amount: input.amount,
      chainName: input.chainName,
      beneficiaryId: null,
      quoteId: null,
      fee: null,
      feeAsset: null,
      counterpartyOrganizationId: null,
      reference: null,
      failureReason: null,
      destination: null,
      createdAt: input.now,
      updatedAt: input.now,
    });
    return expected.moveTo('COMPLETED', input.journalId, input.now);
  }

  /** A payout: created EXPECTED with amount + fee held from the account at once. */
  static payout(input: {
    id: string;
    organizationId: string;
    accountId: string;
    rail: PayoutRail;
    asset: string;
    amount: Big;
    fee: Big;
    beneficiaryId: string;
    chainName: string | null;
    destination: PayoutDestinationView;
    reference: string | null;
    journalId: string;
    now: Date;
  }): { transaction: Transaction; entry: JournalEntry } {
    const transaction = new Transaction({
      id: input.id,
      organizationId: input.organizationId,
      accountId: input.accountId,
      type: input.rail === 'FIAT' ? 'FIAT_PAYOUT' : 'CRYPTO_PAYOUT',
      status: 'EXPECTED',
      role: 'SENDER',
      asset: input.asset,
      amount: input.amount,
      chainName: input.chainName,
      beneficiaryId: input.beneficiaryId,
      quoteId: null,
      fee: input.fee,
      feeAsset: input.asset,
      counterpartyOrganizationId: null,
      reference: input.reference,
      failureReason: null,
      destination: input.destination,
      createdAt: input.now,
      updatedAt: input.now,
    });
    const entry = transaction.entryFor('EXPECTED', input.journalId);
    if (!entry) throw new Error('a payout always holds its funds');
    return { transaction, entry };
  }

  /**
   * A quote's trade, created and completed in one step (EXPECTED → COMPLETED,
   * like the faucet's deposit) with its commission, in ONE journal entry: the client sells
   * `fromAmount`; the platform's liquidity takes `fromAmount − fee` and pays `toAmount`; the fee
   * goes to `fees_earned` but for the commission, which the recipient's account receives. Each
   * asset balances on its own.
   */
  static trade(input: {
    id: string;
    organizationId: string;
    accountId: string;
    quoteId: string;
    terms: TradeTerms;
    /** Who earns the commission; null (or a zero commission) leaves the whole fee to the platform. */
    commission: { id: string; organizationId: string; accountId: string } | null;
    journalId: string;
    now: Date;
  }): { trade: StatusChange; commission: StatusChange | null; entry: JournalEntry } {
    const { terms, now } = input;
    const base = {
      status: 'EXPECTED' as const,
      chainName: null,
      beneficiaryId: null,
      quoteId: input.quoteId,
      reference: null,
      failureReason: null,
      destination: null,
      createdAt: now,
      updatedAt: now,
    };
    const trade = new Transaction({
      ...base,
      id: input.id,
      organizationId: input.organizationId,
      accountId: input.accountId,
      type: 'TRADE',
      role: 'SENDER',
      asset: terms.fromAsset,
      amount: terms.fromAmount,
      fee: terms.fee,
      feeAsset: terms.fromAsset,
      counterpartyOrganizationId: null,
    });
    const paid = input.commission && terms.commission.gt(0) ? input.commission : null;
    const commission = paid
      ? new Transaction({
          ...base,
          id: paid.id,
          organizationId: paid.organizationId,
          accountId: paid.accountId,
          type: 'COMMISSION',
          role: 'RECEIVER',
          asset: terms.fromAsset,
          amount: terms.commission,
          fee: null,
          feeAsset: null,
          // The client whose trade earned it.
          counterpartyOrganizationId: input.organizationId,
        })
      : null;
    const kept = paid ? terms.fee.minus(terms.commission) : terms.fee;
    const lines: JournalLineInput[] = [
      line(customer(input.accountId), terms.fromAsset, terms.fromAmount.neg()),
      line(platform('liquidity'), terms.fromAsset, terms.fromAmount.minus(terms.fee)),
      line(platform('fees_earned'), terms.fromAsset, kept),
      // The broker's line is its own COMMISSION, the transaction its statement can open.
      ...(paid ? [line(customer(paid.accountId), terms.fromAsset, terms.commission, paid.id)] : []),
      line(platform('liquidity'), terms.toAsset, terms.toAmount.neg()),
      line(customer(input.accountId), terms.toAsset, terms.toAmount),
    ];
    const entry = JournalEntry.of(input.journalId, 'TRADE:COMPLETED', trade.id, lines);
    const completed = (transaction: Transaction): StatusChange => ({
      transaction: new Transaction({ ...transaction.props, status: 'COMPLETED' }),
      previousStatus: transaction.status,
      entry: null,
    });
    return { trade: { ...completed(trade), entry }, commission: commission ? completed(commission) : null, entry };
  }

  get type(): TransactionType {
    return this.props.type;
  }

  /**
   * Moves along the state machine; an illegal move is `invalid_request` naming the current status.
   * A decline records `declineReason` (the rail's words) as the failure reason.
   */
  advance(action: TransactionAction, journalId: string, now: Date, declineReason?: string): StatusChange {
    if (FINAL_ON_CREATION.includes(this.props.type)) throw new IllegalTransitionError(this.id, action, this.status, []);
    const move = TRANSITIONS[action];
    if (!move.from.includes(this.status)) throw new IllegalTransitionError(this.id, action, this.status, actionsFrom(this.status));
    return this.moveTo(move.to, journalId, now, declineReason);
  }

  /** A payout (either rail), whose moves a rail drives. */
  get isPayout(): boolean {
    return PAYOUTS.includes(this.props.type);
  }

  /** The rail a payout goes out on; null for anything else. */
  get payoutRail(): PayoutRail | null {
    if (this.props.type === 'FIAT_PAYOUT') return 'FIAT';
    return this.props.type === 'CRYPTO_PAYOUT' ? 'CRYPTO' : null;
  }

  private moveTo(status: TransactionStatus, journalId: string, now: Date, declineReason?: string): StatusChange {
    const failureReason = status === 'DECLINED' ? (declineReason ?? 'Declined by the payment rail.') : this.props.failureReason;
    const next = new Transaction({ ...this.props, status, failureReason, updatedAt: now });
    return { transaction: next, previousStatus: this.status, entry: next.entryFor(status, journalId) };
  }

  /**
   * The posting rules: what entering `status` moves. Payins credit on completion and give back
   * on refund. Payouts hold amount + fee on creation; completion sends the amount out and books
   * the fee as earned; a decline releases the hold; a refund returns amount and fee.
   */
  private entryFor(status: TransactionStatus, journalId: string): JournalEntry | null {
    const { type, accountId, asset, amount } = this.props;
    const fee = this.props.fee ?? new Big(0);
    const gross = amount.plus(fee);
    let lines: JournalLineInput[] = [];
    if (PAYINS.includes(type)) {
      if (status === 'COMPLETED') lines = [line(customer(accountId), asset, amount), line(platform('external_deposits'), asset, amount.neg())];
      if (status === 'REFUNDED') lines = [line(customer(accountId), asset, amount.neg()), line(platform('external_deposits'), asset, amount)];
    } else if (PAYOUTS.includes(type)) {
      if (status === 'EXPECTED') lines = [line(customer(accountId), asset, gross.neg()), line(platform('payouts_in_flight'), asset, gross)];
      if (status === 'COMPLETED') {
        lines = [
          line(platform('payouts_in_flight'), asset, gross.neg()),
          line(platform('external_payouts'), asset, amount),
          line(platform('fees_earned'), asset, fee),
        ];
      }
      if (status === 'DECLINED') lines = [line(platform('payouts_in_flight'), asset, gross.neg()), line(customer(accountId), asset, gross)];
      if (status === 'REFUNDED') {
        lines = [line(platform('external_payouts'), asset, amount.neg()), line(platform('fees_earned'), asset, fee.neg()), line(customer(accountId), asset, gross)];
      }
    } else {
      throw new Error(`no posting rules for ${type} transactions in this ledger`);
    }
    return lines.length ? JournalEntry.of(journalId, `${type}:${status}`, this.id, lines) : null;
  }
}

function line(account: JournalLineInput['account'], asset: string, amount: Big, transactionId?: string): JournalLineInput {
  return { account, asset, amount, transactionId };
}
