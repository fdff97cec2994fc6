import { Big, TRANSACTION_ACTIONS, TRANSACTION_STATUSES, type TransactionAction, type TransactionStatus } from '@pfs/contracts';
import { tradeTerms } from './trade-terms';
import { actionsFrom, Transaction, TRANSITIONS } from './transaction';

const now = new Date('2026-11-23T10:00:00.000Z');

function deposit(amount = '100') {
  return Transaction.settledCryptoDeposit({
    id: 'txn_1',
    organizationId: 'org_1',
    accountId: 'acct_1',
    asset: 'USDC',
    amount: new Big(amount),
    chainName: 'BASE_SEPOLIA',
    journalId: 'jrnl_1',
    now,
  });
}

function payout(fee = '0.5') {
  return Transaction.payout({
    id: 'txn_2',
    organizationId: 'org_1',
    accountId: 'acct_1',
    rail: 'CRYPTO',
    asset: 'USDC',
    amount: new Big('10'),
    fee: new Big(fee),
    beneficiaryId: 'bene_1',
    chainName: 'BASE_SEPOLIA',
    destination: { rail: 'CRYPTO', nickname: 'Wallet', name: null, bank: null, crypto: { chainName: 'BASE_SEPOLIA', platform: 'EVM', address: '0x52908400098527886E0F7030069857D2E4169EE7' } },
    reference: null,
    journalId: 'jrnl_2',
    now,
  });
}

/** Lines of an entry as `account asset amount`, for readable expectations. */
function lines(change: { entry: { lines: readonly { account: { kind: string; accountId?: string; purpose?: string }; asset: string; amount: Big }[] } | null }) {
  return (change.entry?.lines ?? []).map((line) => `${line.account.kind === 'customer' ? line.account.accountId : line.account.purpose} ${line.asset} ${line.amount.toFixed()}`).sort();
}

describe('Transaction state machine', () => {
  it('allows exactly EXPECTED→LOCKED→COMPLETED|DECLINED, EXPECTED→DECLINED and COMPLETED→REFUNDED', () => {
    const allowed: string[] = [];
    for (const from of TRANSACTION_STATUSES) for (const action of actionsFrom(from)) allowed.push(`${from}-${action}->${TRANSITIONS[action].to}`);
    expect(allowed.sort()).toEqual(
      ['EXPECTED-lock->LOCKED', 'EXPECTED-decline->DECLINED', 'LOCKED-complete->COMPLETED', 'LOCKED-decline->DECLINED', 'COMPLETED-refund->REFUNDED'].sort(),
    );
    expect(actionsFrom('DECLINED')).toEqual([]);
    expect(actionsFrom('REFUNDED')).toEqual([]);
  });

  it('refuses every other move with invalid_request naming the current status', () => {
    const { transaction } = payout();
    const at: Record<TransactionStatus, Transaction> = {
      EXPECTED: transaction,
      LOCKED: transaction.advance('lock', 'j', now).transaction,
      COMPLETED: transaction.advance('lock', 'j', now).transaction.advance('complete', 'j', now).transaction,
      DECLINED: transaction.advance('decline', 'j', now).transaction,
      REFUNDED: transaction.advance('lock', 'j', now).transaction.advance('complete', 'j', now).transaction.advance('refund', 'j', now).transaction,
    };
    for (const status of TRANSACTION_STATUSES) {
      expect(at[status].status).toBe(status);
      for (const action of TRANSACTION_ACTIONS as readonly TransactionAction[]) {
        if (actionsFrom(status).includes(action)) continue;
        expect(() => at[status].advance(action, 'j', now)).toThrow(expect.objectContaining({ code: 'invalid_request', message: expect.stringContaining(`is ${status}`) }));
      }
    }
  });
});

describe('Posting rules', () => {
  it('a settled deposit is created and completed in one step, EXPECTED → COMPLETED, crediting the account from external deposits', () => {
    const change = deposit('100.5');
    expect(change.previousStatus).toBe('EXPECTED');
    expect(change.transaction.status).toBe('COMPLETED');
    expect(change.transaction.props).toMatchObject({ type: 'CRYPTO_PAYIN', role: 'RECEIVER', chainName: 'BASE_SEPOLIA' });
    expect(lines(change)).toEqual(['acct_1 USDC 100.5', 'external_deposits USDC -100.5']);
  });

  it('refunding a deposit debits the account back', () => {
    expect(lines(deposit('7').transaction.advance('refund', 'j', now))).toEqual(['acct_1 USDC -7', 'external_deposits USDC 7']);
  });

  it('a payout holds amount + fee at creation; lock moves nothing; completion pays out and books the fee', () => {
    const created = payout('0.5');
    expect(created.transaction.props).toMatchObject({ type: 'CRYPTO_PAYOUT', role: 'SENDER', status: 'EXPECTED' });
    expect(lines({ entry: created.entry })).toEqual(['acct_1 USDC -10.5', 'payouts_in_flight USDC 10.5']);
    const locked = created.transaction.advance('lock', 'j', now);
    expect(locked.entry).toBeNull();
    expect(lines(locked.transaction.advance('complete', 'j', now))).toEqual(['external_payouts USDC 10', 'fees_earned USDC 0.5', 'payouts_in_flight USDC -10.5']);
  });

  it('a declined payout releases its hold; a refunded one returns amount and fee', () => {
    const created = payout('0.5');
    const declined = created.transaction.advance('decline', 'j', now);
    expect(declined.transaction.props.failureReason).toEqual(expect.any(String));
    expect(lines(declined)).toEqual(['acct_1 USDC 10.5', 'payouts_in_flight USDC -10.5']);
    const completed = created.transaction.advance('lock', 'j', now).transaction.advance('complete', 'j', now).transaction;
    expect(lines(completed.advance('refund', 'j', now))).toEqual(['acct_1 USDC 10.5', 'external_payouts USDC -10', 'fees_earned USDC -0.5']);
  });

  it('a payout without a fee posts no fee line', () => {
    const created = payout('0');
    expect(lines({ entry: created.entry })).toEqual(['acct_1 USDC -10', 'payouts_in_flight USDC 10']);
    const completed = created.transaction.advance('lock', 'j', now).transaction.advance('complete', 'j', now);
    expect(lines(completed)).toEqual(['external_payouts USDC 10', 'payouts_in_flight USDC -10']);
  });

  it('every entry of every path balances to zero per asset', () => {
    const created = payout('0.25');
    const paths = [
      [created.entry],
      [created.transaction.advance('decline', 'j', now).entry],
      [created.transaction.advance('lock', 'j', now).transaction.advance('complete', 'j', now).entry],
      [deposit().entry, deposit().transaction.advance('refund', 'j', now).entry],
    ];
    for (const entry of paths.flat()) {
      const sum = entry!.lines.reduce((total, line) => total.plus(line.amount), new Big(0));
      expect(sum.toFixed()).toBe('0');
    }
  });
});

describe('a payout’s destination', () => {
  it('is kept from creation through every move, and only a payout has one', () => {
    const { transaction } = payout();
    const kept = transaction.props.destination;
    expect(kept).toMatchObject({ rail: 'CRYPTO', crypto: { address: '0x52908400098527886E0F7030069857D2E4169EE7' } });
    const completed = transaction.advance('lock', 'j', now).transaction.advance('complete', 'j', now).transaction;
    expect(completed.props.destination).toBe(kept);
    expect(deposit().transaction.props.destination).toBeNull();
  });
});

describe('a payout declined by its rail', () => {
  it('records the rail’s reason, else a generic one, and returns hold and fee; knows its rail', () => {
    const { transaction } = payout();
    expect(transaction.isPayout).toBe(true);
    expect(transaction.payoutRail).toBe('CRYPTO');
    const locked = transaction.advance('lock', 'jrnl_3', now).transaction;
    const declined = locked.advance('decline', 'jrnl_4', now, 'Declined by the beneficiary’s bank.');
    expect(declined.transaction.props.failureReason).toBe('Declined by the beneficiary’s bank.');
    expect(lines(declined)).toEqual(['acct_1 USDC 10.5', 'payouts_in_flight USDC -10.5']);
    expect(locked.advance('decline', 'jrnl_5', now).transaction.props.failureReason).toBe('Declined by the payment rail.');
    expect(deposit().transaction.isPayout).toBe(false);
    expect(deposit().transaction.payoutRail).toBeNull();
  });
});

describe('a trade with its commission', () => {
  const posted = (commission: string) =>
    Transaction.trade({
      id: 'txn_trade',
      organizationId: 'org_client',
      accountId: 'acct_client',
      quoteId: 'quote_1',
      terms: tradeTerms({ fromAsset: 'USDC', fromAmount: '40', toAsset: 'ETH', toAmount: '0.0132', fee: '0.4', commission }),
      commission: { id: 'txn_commission', organizationId: 'org_broker', accountId: 'acct_broker' },
      journalId: 'jrnl_1',
      now,
    });

  it('puts the broker’s line on its own COMMISSION and every other line on the TRADE', () => {
    const { trade, commission, entry } = posted('0.1');
    expect(commission?.transaction.props).toMatchObject({ id: 'txn_commission', accountId: 'acct_broker', type: 'COMMISSION', role: 'RECEIVER' });
    expect(trade.entry).toBe(entry);
    expect(entry.transactionId).toBe('txn_trade');
    expect(entry.lines.map((line) => `${line.account.kind === 'customer' ? line.account.accountId : line.account.purpose} ${line.asset} ${line.transactionId}`).sort()).toEqual(
      [
        'acct_client USDC txn_trade',
        'liquidity USDC txn_trade',
        'fees_earned USDC txn_trade',
        'acct_broker USDC txn_commission',
        'liquidity ETH txn_trade',
        'acct_client ETH txn_trade',
      ].sort(),
    );
  });

  it('writes no broker line, and no COMMISSION, when nothing is owed', () => {
    const { commission, entry } = posted('0');
    expect(commission).toBeNull();
    expect(entry.lines.every((line) => line.transactionId === 'txn_trade')).toBe(true);
  });
});
