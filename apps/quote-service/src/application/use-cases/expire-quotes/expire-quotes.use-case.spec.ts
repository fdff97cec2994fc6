import { QUOTE_LIFETIME_MS } from '../../../domain/quote';
import { quoteInMemory } from '../../../../test/support/in-memory/quote-in-memory.kit';

describe('ExpireQuotesUseCase (in memory)', () => {
  it('stores EXPIRED on the PENDING quotes past their expiry only', async () => {
    const kit = quoteInMemory();
    const create = () => kit.createQuote.execute({ organizationId: 'org_1', accountId: 'acct_1', fromAsset: 'ETH', toAsset: 'USD', fromAmount: '1', toAmount: null });
    const due = await create();
    kit.clock.advance(60_000);
    const later = await create();
    kit.clock.advance(QUOTE_LIFETIME_MS - 60_000);
    expect(await kit.expireQuotes.execute()).toBe(1);
    expect(kit.quotes.quotes.get(due.quoteId)?.props).toMatchObject({ status: 'EXPIRED', updatedAt: kit.clock.now() });
    expect(kit.quotes.quotes.get(later.quoteId)?.props.status).toBe('PENDING');
    expect(await kit.expireQuotes.execute()).toBe(0);
  });
});
