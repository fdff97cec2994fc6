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

  it('executes up to the last millisecond; at expiresAt it is quote_expired, stored EXPIRED, and nothing is posted', async () => {
    const early = await pendingQuote();
    early.kit.clock.advance(QUOTE_LIFETIME_MS - 1);
    await expect(early.run()).resolves.toMatchObject({ type: 'TRADE' });

    const { kit, quoteId, run } = await pendingQuote();
    kit.clock.advance(QUOTE_LIFETIME_MS);
    await expect(run()).rejects.toMatchObject({ code: 'quote_expired' });
    expect(kit.quotes.quotes.get(quoteId)?.props.status).toBe('EXPIRED');
    expect(kit.ledger.posts).toBe(0);
    // Stored EXPIRED now: the same answer again.
    await expect(run()).rejects.toMatchObject({ code: 'quote_expired' });
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

  it('the ledger posted but the quote was not stored (reply lost): executing again completes it with the same trade, even past expiry', async () => {
    for (const stored of ['PENDING', 'EXPIRED'] as const) {
      const { kit, quoteId, run } = await pendingQuote();
      kit.ledger.afterPost = () => {
        kit.ledger.afterPost = null;
        throw new Error('reply lost');
      };
      await expect(run()).rejects.toThrow('reply lost');
      expect(kit.quotes.quotes.get(quoteId)?.props.status).toBe('PENDING');
      const posted = kit.ledger.trades.get(quoteId);
      kit.clock.advance(QUOTE_LIFETIME_MS + 1);
      if (stored === 'EXPIRED') await kit.expireQuotes.execute();
      expect(kit.quotes.quotes.get(quoteId)?.props.status).toBe(stored);

      await expect(run()).resolves.toEqual(posted);
      expect(kit.quotes.quotes.get(quoteId)?.props).toMatchObject({ status: 'COMPLETED', transactionId: posted?.transactionId });
      expect(kit.ledger.trades.size).toBe(1);
    }
  });

  it('another organization’s quote, or none: quote_not_found, and nothing is posted', async () => {
    const { kit, quoteId } = await pendingQuote();
    await expect(kit.executeQuote.execute({ organizationId: 'org_2', quoteId })).rejects.toMatchObject({ code: 'quote_not_found', message: `No quote ${quoteId} was found.` });
    await expect(kit.executeQuote.execute({ organizationId: 'org_1', quoteId: 'quote_missing' })).rejects.toMatchObject({ code: 'quote_not_found' });
    expect(kit.ledger.posts).toBe(0);
    expect(kit.quotes.quotes.get(quoteId)?.props.status).toBe('PENDING');
  });
});
