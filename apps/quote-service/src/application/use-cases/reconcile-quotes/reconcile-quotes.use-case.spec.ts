import { QUOTE_LIFETIME_MS } from '../../../domain/quote';
import { RECONCILE_BATCH } from '../../quote-reconciler';
import { quoteInMemory } from '../../../../test/support/in-memory/quote-in-memory.kit';

const SELL = { organizationId: 'org_1', accountId: 'acct_1', fromAsset: 'ETH', toAsset: 'USD', fromAmount: '1', toAmount: null };

/** A quote whose trade the ledger made while its execute failed to record it (the process died, the reply was lost). */
async function tradedButUnrecorded(kit: ReturnType<typeof quoteInMemory>): Promise<string> {
  const { quoteId } = await kit.createQuote.execute(SELL);
  await kit.executeLosingTheReply(quoteId);
  return quoteId;
}

describe('ReconcileQuotesUseCase (in memory)', () => {
  it('settles only the PENDING quotes past their expiry, each as the ledger answers: COMPLETED with the trade it holds, else EXPIRED', async () => {
    const kit = quoteInMemory();
    const traded = await tradedButUnrecorded(kit);
    const untraded = (await kit.createQuote.execute(SELL)).quoteId;
    kit.clock.advance(60_000);
    const later = (await kit.createQuote.execute(SELL)).quoteId;
    const trade = kit.ledger.trades.get(traded);

    // Before the expiry the ledger is not asked, and nothing moves: the traded one is PENDING and executable.
    kit.clock.advance(QUOTE_LIFETIME_MS - 60_001);
    expect(await kit.reconcileQuotes.execute()).toEqual({ completed: 0, expired: 0 });
    expect(kit.ledger.questions).toBe(0);

    kit.clock.advance(1);
    expect(await kit.reconcileQuotes.execute()).toEqual({ completed: 1, expired: 1 });
    expect(kit.quotes.quotes.get(traded)?.props).toMatchObject({ status: 'COMPLETED', transactionId: trade?.transactionId, updatedAt: kit.clock.now() });
    expect(kit.quotes.quotes.get(untraded)?.props).toMatchObject({ status: 'EXPIRED', transactionId: null, updatedAt: kit.clock.now() });
    expect(kit.quotes.quotes.get(later)?.props.status).toBe('PENDING');
    expect(kit.ledger.questions).toBe(2);
    // Nothing was posted by the reconciliation: the one trade is the execute's.
    expect({ trades: kit.ledger.trades.size, posts: kit.ledger.posts }).toEqual({ trades: 1, posts: 1 });

    // Settled for good: the next pass asks about nothing.
    expect(await kit.reconcileQuotes.execute()).toEqual({ completed: 0, expired: 0 });
    expect(kit.ledger.questions).toBe(2);
    await expect(kit.executeQuote.execute({ organizationId: 'org_1', quoteId: traded })).rejects.toMatchObject({ code: 'quote_already_used' });
  });

  it('settles every due quote in one pass, however many batches they take', async () => {
    const kit = quoteInMemory();
    const count = RECONCILE_BATCH * 2 + 3;
    for (let i = 0; i < count; i += 1) await kit.createQuote.execute(SELL);
    kit.clock.advance(QUOTE_LIFETIME_MS);
    expect(await kit.reconcileQuotes.execute()).toEqual({ completed: 0, expired: count });
    expect([...kit.quotes.quotes.values()].every((quote) => quote.props.status === 'EXPIRED')).toBe(true);
    expect(kit.ledger.questions).toBe(count);
  });
});
