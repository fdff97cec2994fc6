import { Big } from '@pfs/contracts';
import { customer, JournalEntry, platform, UnbalancedJournalEntryError } from './journal-entry';

describe('JournalEntry', () => {
  it('refuses an entry that does not sum to zero per asset, even when the totals across assets do', () => {
    expect(() =>
      JournalEntry.of('j', 'X', 't', [
        { account: customer('acct_a'), asset: 'USDC', amount: new Big('1') },
        { account: platform('external_deposits'), asset: 'USDC', amount: new Big('-0.999999') },
      ]),
    ).toThrow(UnbalancedJournalEntryError);
    expect(() =>
      JournalEntry.of('j', 'X', 't', [
        { account: customer('acct_a'), asset: 'USDC', amount: new Big('1') },
        { account: platform('external_deposits'), asset: 'USDT', amount: new Big('-1') },
      ]),
    ).toThrow(UnbalancedJournalEntryError);
  });

  it('merges lines on the same account and asset and drops zero lines', () => {
    const entry = JournalEntry.of('j', 'X', 't', [
      { account: customer('acct_a'), asset: 'USDC', amount: new Big('2') },
      { account: customer('acct_a'), asset: 'USDC', amount: new Big('3') },
      { account: platform('fees_earned'), asset: 'USDC', amount: new Big('0') },
      { account: platform('external_deposits'), asset: 'USDC', amount: new Big('-5') },
    ]);
    expect(entry.lines.map((line) => line.amount.toFixed())).toEqual(['5', '-5']);
  });

  it('gives customer lines in one total order (account, then asset): the order balance rows are locked in', () => {
    const entry = JournalEntry.of('j', 'X', 't', [
      { account: customer('acct_b'), asset: 'USDC', amount: new Big('1') },
      { account: customer('acct_a'), asset: 'USDT', amount: new Big('1') },
      { account: customer('acct_a'), asset: 'USDC', amount: new Big('-1') },
      { account: platform('external_deposits'), asset: 'USDT', amount: new Big('-1') },
    ]);
    expect(entry.customerLines().map((line) => `${line.account.accountId}/${line.asset}`)).toEqual(['acct_a/USDC', 'acct_a/USDT', 'acct_b/USDC']);
    expect(entry.platformLines()).toHaveLength(1);
  });

  it('gives each line the entry’s transaction unless the line names the transaction of its own account', () => {
    const entry = JournalEntry.of('j', 'X', 'txn_sender', [
      { account: customer('acct_a'), asset: 'USDC', amount: new Big('-2') },
      { account: customer('acct_b'), asset: 'USDC', amount: new Big('1.5'), transactionId: 'txn_receiver' },
      { account: platform('fees_earned'), asset: 'USDC', amount: new Big('0.5') },
    ]);
    expect(entry.transactionId).toBe('txn_sender');
    expect(entry.lines.map((line) => [line.account.kind === 'customer' ? line.account.accountId : line.account.purpose, line.transactionId])).toEqual([
      ['acct_a', 'txn_sender'],
      ['acct_b', 'txn_receiver'],
      ['fees_earned', 'txn_sender'],
    ]);
  });

  it('refuses to merge two lines of one account and asset that name different transactions (a bug, never a client error)', () => {
    expect(() =>
      JournalEntry.of('j', 'X', 't', [
        { account: customer('acct_a'), asset: 'USDC', amount: new Big('1') },
        { account: customer('acct_a'), asset: 'USDC', amount: new Big('1'), transactionId: 'other' },
        { account: platform('external_deposits'), asset: 'USDC', amount: new Big('-2') },
      ]),
    ).toThrow('puts two transactions on one line');
  });
});
