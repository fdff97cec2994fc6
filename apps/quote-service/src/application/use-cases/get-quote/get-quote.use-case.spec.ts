import { QUOTE_LIFETIME_MS } from '../../../domain/quote';
import { quoteInMemory } from '../../../../test/support/in-memory/quote-in-memory.kit';

const SELL = { organizationId: 'org_1', accountId: 'acct_1', fromAsset: 'EUR', toAsset: 'USDC', fromAmount: '10', toAmount: null };

describe('GetQuoteUseCase (in memory)', () => {
  it('reads a quote as of now: PENDING until expiresAt, then settled with the ledger, EXPIRED with no trade; another organization gets quote_not_found', async () => {
    const kit = quoteInMemory();
    const { quoteId } = await kit.createQuote.execute(SELL);
    kit.clock.advance(QUOTE_LIFETIME_MS - 1);
    expect((await kit.getQuote.execute({ organizationId: 'org_1', quoteId })).status).toBe('PENDING');
    expect(kit.ledger.questions).toBe(0);
    kit.clock.advance(1);
    expect(await kit.getQuote.execute({ organizationId: 'org_1', quoteId })).toMatchObject({ status: 'EXPIRED', transactionId: null });
    expect(kit.quotes.quotes.get(quoteId)?.props).toMatchObject({ status: 'EXPIRED', updatedAt: kit.clock.now() });
    expect(kit.ledger.questions).toBe(1);
    // Stored EXPIRED: final, the ledger is not asked again.
    expect((await kit.getQuote.execute({ organizationId: 'org_1', quoteId })).status).toBe('EXPIRED');
    expect(kit.ledger.questions).toBe(1);
    await expect(kit.getQuote.execute({ organizationId: 'org_2', quoteId })).rejects.toMatchObject({ code: 'quote_not_found', message: `No quote ${quoteId} was found.` });
    await expect(kit.getQuote.execute({ organizationId: 'org_1', quoteId: 'quote_missing' })).rejects.toMatchObject({ code: 'quote_not_found' });
  });

  it('a quote whose trade was made but not recorded (its execute died) reads COMPLETED with that trade from its expiry on, never EXPIRED', async () => {
    const kit = quoteInMemory();
    const { quoteId } = await kit.createQuote.execute(SELL);
    await kit.executeLosingTheReply(quoteId);
    const trade = kit.ledger.trades.get(quoteId);
    kit.clock.advance(QUOTE_LIFETIME_MS);

    expect(await kit.getQuote.execute({ organizationId: 'org_1', quoteId })).toMatchObject({ status: 'COMPLETED', transactionId: trade?.transactionId });
    expect(kit.quotes.quotes.get(quoteId)?.props).toMatchObject({ status: 'COMPLETED', transactionId: trade?.transactionId });
    expect({ trades: kit.ledger.trades.size, posts: kit.ledger.posts }).toEqual({ trades: 1, posts: 1 });
  });
});
