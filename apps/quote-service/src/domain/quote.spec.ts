import { Big } from '@pfs/contracts';
import { Quote, QUOTE_LIFETIME_MS } from './quote';
import { priceSelling } from './quote-pricing';

const T0 = new Date('2026-11-23T08:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

function quote(referrerShareBps = 20): Quote {
  const pricing = { midRate: new Big('0.92'), spreadBps: 60, fromScale: 2, toScale: 2 };
  return Quote.create({
    id: 'quote_1',
    organizationId: 'org_1',
    accountId: 'acct_1',
    fromAsset: 'USD',
    toAsset: 'EUR',
    terms: priceSelling(new Big('1000'), pricing),
    pricing: { spreadBps: 60, referrerShareBps, feeScale: 2 },
    now: T0,
  });
}

describe('Quote', () => {
  it('is PENDING for five minutes, then due: what it ends as (COMPLETED or EXPIRED) is the ledger’s answer', () => {
    const created = quote();
    expect(created.props).toMatchObject({ status: 'PENDING', expiresAt: at(QUOTE_LIFETIME_MS), createdAt: T0 });
    expect(created.statusAt(at(QUOTE_LIFETIME_MS - 1))).toBe('PENDING');
    expect(created.isDue(at(QUOTE_LIFETIME_MS - 1))).toBe(false);
    expect(created.statusAt(at(QUOTE_LIFETIME_MS))).toBe('EXPIRED');
    expect(created.isDue(at(QUOTE_LIFETIME_MS))).toBe(true);
    expect(created.expireIfDue(at(1000))).toBe(created);
    const expired = created.expireIfDue(at(QUOTE_LIFETIME_MS));
    expect(expired.props).toMatchObject({ status: 'EXPIRED', updatedAt: at(QUOTE_LIFETIME_MS) });
    // Stored EXPIRED, or used: nothing is due any more.
    expect(expired.isDue(at(QUOTE_LIFETIME_MS * 2))).toBe(false);
    expect(created.complete('txn_1', at(1000)).isDue(at(QUOTE_LIFETIME_MS * 2))).toBe(false);
  });

  it('is used once: quote_already_used once completed or failed, at any time', () => {
    const created = quote();
    expect(() => created.assertUnused()).not.toThrow();
    expect(() => created.expireIfDue(at(QUOTE_LIFETIME_MS)).assertUnused()).not.toThrow();
    const done = created.complete('txn_1', at(1000));
    expect(done.props).toMatchObject({ status: 'COMPLETED', transactionId: 'txn_1' });
    expect(() => done.assertUnused()).toThrow(expect.objectContaining({ code: 'quote_already_used', message: 'Quote quote_1 is COMPLETED: a quote can be executed once.' }));
    // Completed stays completed past the expiry: only a PENDING quote expires.
    expect(done.statusAt(at(QUOTE_LIFETIME_MS * 2))).toBe('COMPLETED');
    const failed = created.fail('account ACCT is SUSPENDED', at(1000));
    expect(failed.props).toMatchObject({ status: 'FAILED', failureReason: 'account ACCT is SUSPENDED' });
    expect(() => failed.assertUnused()).toThrow(expect.objectContaining({ code: 'quote_already_used', message: 'Quote quote_1 is FAILED: a quote can be executed once.' }));
  });

  it('completes from PENDING, or from EXPIRED for a trade posted in time and recorded late; nothing else moves a used quote', () => {
    const expired = quote().expireIfDue(at(QUOTE_LIFETIME_MS));
    expect(expired.complete('txn_1', at(QUOTE_LIFETIME_MS + 1)).props).toMatchObject({ status: 'COMPLETED', transactionId: 'txn_1' });
    const done = quote().complete('txn_1', at(1000));
    const failed = quote().fail('closed', at(1000));
    for (const used of [done, failed]) {
      expect(() => used.complete('txn_2', at(2000))).toThrow(expect.objectContaining({ code: 'quote_already_used' }));
      expect(() => used.fail('again', at(2000))).toThrow(expect.objectContaining({ code: 'quote_already_used' }));
    }
    expect(() => expired.fail('closed', at(QUOTE_LIFETIME_MS + 1))).toThrow(expect.objectContaining({ code: 'quote_already_used' }));
  });

  it('pays the referrer share of the fee rounded down at the fee scale; none without a share', () => {
    // fee = 1000 × 0.6 % = 6.00 USD; 20 % of it = 1.20; 33 bps of it = 0.0198 → 0.01.
    expect(quote().props.terms.fee).toEqual(new Big('6'));
    expect(quote(2000).commission()).toEqual(new Big('1.2'));
    expect(quote(33).commission()).toEqual(new Big('0.01'));
    // 1 bps of 6.00 = 0.0006: rounds down to nothing, so no commission is paid.
    expect(quote(1).commission()).toEqual(new Big('0'));
    expect(quote(0).commission()).toEqual(new Big('0'));
  });
});
