import { QUOTE_LIFETIME_MS } from '../../../domain/quote';
import { quoteInMemory } from '../../../../test/support/in-memory/quote-in-memory.kit';

const SELL = { organizationId: 'org_1', accountId: 'acct_1', fromAsset: 'EUR', toAsset: 'USDC', fromAmount: '10', toAmount: null };

async function pendingQuote() {
  const kit = quoteInMemory();
  const { quoteId } = await kit.createQuote.execute(SELL);
  return { kit, quoteId, run: () => kit.executeQuote.execute({ organizationId: 'org_1', quoteId }) };
}

describe('ExecuteQuoteUseCase (in memory)', () => {
  it('posts the trade and completes the quote with it; a second execute is quote_already_used and posts nothing', async () => {
    const { kit, quoteId, run } = await pendingQuote();
    const trade = await run();
    expect(trade).toMatchObject({ type: 'TRADE', status: 'COMPLETED', quoteId, amount: kit.quotes.quotes.get(quoteId)?.props.terms.toAmount.toFixed() });
    expect(kit.quotes.quotes.get(quoteId)?.props).toMatchObject({ status: 'COMPLETED', transactionId: trade.transactionId, updatedAt: kit.clock.now() });
    await expect(run()).rejects.toMatchObject({ code: 'quote_already_used', message: `Quote ${quoteId} is COMPLETED: a quote can be executed once.` });
    expect(kit.ledger.posts).toBe(1);
  });

  it('executes up to the last millisecond; at expiresAt the ledger is only asked, and with no trade it is quote_expired, stored EXPIRED', async () => {
    const early = await pendingQuote();
    early.kit.clock.advance(QUOTE_LIFETIME_MS - 1);
    await expect(early.run()).resolves.toMatchObject({ type: 'TRADE' });

    const { kit, quoteId, run } = await pendingQuote();
    kit.clock.advance(QUOTE_LIFETIME_MS);
    await expect(run()).rejects.toMatchObject({ code: 'quote_expired' });
    expect(kit.quotes.quotes.get(quoteId)?.props).toMatchObject({ status: 'EXPIRED', updatedAt: kit.clock.now() });
    expect({ posts: kit.ledger.posts, questions: kit.ledger.questions }).toEqual({ posts: 0, questions: 1 });
    // Stored EXPIRED now: the same answer again, still without posting.
    await expect(run()).rejects.toMatchObject({ code: 'quote_expired' });
    expect(kit.ledger.posts).toBe(0);
  });

  it('insufficient_funds leaves the quote PENDING, and it executes once funded', async () => {
    const { kit, quoteId, run } = await pendingQuote();
    kit.ledger.refusal = 'insufficient_funds';
    await expect(run()).rejects.toMatchObject({ code: 'insufficient_funds' });
    expect(kit.quotes.quotes.get(quoteId)?.props).toMatchObject({ status: 'PENDING', transactionId: null, failureReason: null });
    kit.ledger.refusal = null;
    await expect(run()).resolves.toMatchObject({ quoteId });
    expect(kit.quotes.quotes.get(quoteId)?.props.status).toBe('COMPLETED');
  });

  it('an account that can no longer trade: forbidden, and the quote is FAILED with the reason although the refusal rolled back', async () => {
    const { kit, quoteId, run } = await pendingQuote();
    kit.ledger.refusal = 'account_suspended';
    const reason = 'Account acct_1 is SUSPENDED: only an ACTIVE account can trade.';
    await expect(run()).rejects.toMatchObject({ code: 'forbidden', message: reason });
    expect(kit.quotes.quotes.get(quoteId)?.props).toMatchObject({ status: 'FAILED', failureReason: reason, transactionId: null });
    kit.ledger.refusal = null;
    await expect(run()).rejects.toMatchObject({ code: 'quote_already_used', message: `Quote ${quoteId} is FAILED: a quote can be executed once.` });
    expect(kit.ledger.trades.size).toBe(0);
  });

  it.each([
    ['again before expiry: the post answers the trade it made', 0, 2, 0],
    ['past expiry: the ledger is only asked, and holds the trade', QUOTE_LIFETIME_MS + 1, 1, 1],
  ])('the ledger posted but the quote was not recorded (reply lost), executed %s', async (_label, later, posts, questions) => {
    const { kit, quoteId, run } = await pendingQuote();
    await kit.executeLosingTheReply(quoteId);
    expect(kit.quotes.quotes.get(quoteId)?.props).toMatchObject({ status: 'PENDING', transactionId: null });
    const posted = kit.ledger.trades.get(quoteId);
    kit.clock.advance(later);

    await expect(run()).resolves.toEqual(posted);
    expect(kit.quotes.quotes.get(quoteId)?.props).toMatchObject({ status: 'COMPLETED', transactionId: posted?.transactionId, updatedAt: kit.clock.now() });
    expect({ trades: kit.ledger.trades.size, posts: kit.ledger.posts, questions: kit.ledger.questions }).toEqual({ trades: 1, posts, questions });
  });

  it('a quote stored EXPIRED whose trade the ledger holds (recorded late) completes with it', async () => {
    const { kit, quoteId, run } = await pendingQuote();
    await kit.executeLosingTheReply(quoteId);
    kit.clock.advance(QUOTE_LIFETIME_MS);
    const stored = kit.quotes.quotes.get(quoteId)!;
    kit.quotes.quotes.set(quoteId, stored.expireIfDue(kit.clock.now()));

    await expect(run()).resolves.toEqual(kit.ledger.trades.get(quoteId));
    expect(kit.quotes.quotes.get(quoteId)?.props).toMatchObject({ status: 'COMPLETED', transactionId: kit.ledger.trades.get(quoteId)?.transactionId });
  });

  it('a post left unanswered until the quote expired: the ledger can no longer make it, so the execute asks, and answers quote_expired', async () => {
    const { kit, quoteId, run } = await pendingQuote();
    // Sent in time, picked up by the ledger only at the expiry: dropped, unanswered.
    kit.ledger.beforePost = () => kit.clock.advance(QUOTE_LIFETIME_MS);
    await expect(run()).rejects.toMatchObject({ code: 'quote_expired' });
    expect(kit.quotes.quotes.get(quoteId)?.props).toMatchObject({ status: 'EXPIRED', transactionId: null });
    expect({ trades: kit.ledger.trades.size, questions: kit.ledger.questions }).toEqual({ trades: 0, questions: 1 });
  });

  it('a post made in time whose reply is lost as the quote expires: the execute asks, and answers the trade', async () => {
    const { kit, quoteId, run } = await pendingQuote();
    kit.ledger.afterPost = () => {
      kit.clock.advance(QUOTE_LIFETIME_MS);
      throw new Error('reply lost');
    };
    const trade = await run();
    expect(trade).toEqual(kit.ledger.trades.get(quoteId));
    expect(kit.quotes.quotes.get(quoteId)?.props).toMatchObject({ status: 'COMPLETED', transactionId: trade.transactionId });
  });

  it('a post left unanswered before expiry fails the execute as it is, with the quote still PENDING and executable', async () => {
    const { kit, quoteId, run } = await pendingQuote();
    kit.ledger.loseNextReply('no reply before the deadline');
    await expect(run()).rejects.toThrow('no reply before the deadline');
    expect(kit.quotes.quotes.get(quoteId)?.props.status).toBe('PENDING');
    expect(kit.ledger.questions).toBe(0);
  });

  it('concurrent executes get the one trade; the one that records it second answers quote_already_used', async () => {
    const { kit, quoteId, run } = await pendingQuote();
    let second: Promise<unknown> | undefined;
    // The second execute runs to its end between the ledger's answer to the first and the first's transaction.
    kit.ledger.afterPost = () => {
      kit.ledger.afterPost = null;
      second = run();
      return second.then(() => undefined);
    };
    await expect(run()).rejects.toMatchObject({ code: 'quote_already_used', message: `Quote ${quoteId} is COMPLETED: a quote can be executed once.` });
    const trade = kit.ledger.trades.get(quoteId);
    await expect(second).resolves.toEqual(trade);
    expect(kit.quotes.quotes.get(quoteId)?.props).toMatchObject({ status: 'COMPLETED', transactionId: trade?.transactionId });
    expect({ trades: kit.ledger.trades.size, posts: kit.ledger.posts }).toEqual({ trades: 1, posts: 2 });
  });

  it('another organization’s quote, or none: quote_not_found, and nothing is posted', async () => {
    const { kit, quoteId } = await pendingQuote();
    await expect(kit.executeQuote.execute({ organizationId: 'org_2', quoteId })).rejects.toMatchObject({ code: 'quote_not_found', message: `No quote ${quoteId} was found.` });
    await expect(kit.executeQuote.execute({ organizationId: 'org_1', quoteId: 'quote_missing' })).rejects.toMatchObject({ code: 'quote_not_found' });
    expect(kit.ledger.posts).toBe(0);
    expect(kit.quotes.quotes.get(quoteId)?.props.status).toBe('PENDING');
  });
});
