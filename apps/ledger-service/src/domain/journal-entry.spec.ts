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
});
