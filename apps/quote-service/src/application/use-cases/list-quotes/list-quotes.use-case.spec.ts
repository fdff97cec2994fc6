import { QUOTE_LIFETIME_MS } from '../../../domain/quote';
import { quoteInMemory } from '../../../../test/support/in-memory/quote-in-memory.kit';

describe('ListQuotesUseCase (in memory)', () => {
  it('pages newest first; the status filter agrees with the statuses shown as of now', async () => {
    const kit = quoteInMemory();
    const create = () => kit.createQuote.execute({ organizationId: 'org_1', accountId: 'acct_1', fromAsset: 'USD', toAsset: 'USDT', fromAmount: '50', toAmount: null });
    const old = await create();
    kit.clock.advance(QUOTE_LIFETIME_MS - 1000);
    const fresh = await create();
    kit.clock.advance(1000);
    await kit.createQuote.execute({ organizationId: 'org_2', accountId: 'acct_other', fromAsset: 'USD', toAsset: 'USDT', fromAmount: '50', toAmount: null });

    const page = (status?: 'PENDING' | 'EXPIRED', cursor: string | null = null, limit = 10) =>
      kit.listQuotes.execute({ organizationId: 'org_1', page: { limit, cursor }, filters: status ? { status } : {} });
    const first = await page(undefined, null, 1);
    expect(first.data.map((q) => [q.quoteId, q.status])).toEqual([[fresh.quoteId, 'PENDING']]);
    const second = await page(undefined, first.nextCursor, 1);
    expect(second.data.map((q) => [q.quoteId, q.status])).toEqual([[old.quoteId, 'EXPIRED']]);
    expect((await page('EXPIRED')).data.map((q) => q.quoteId)).toEqual([old.quoteId]);
    expect((await page('PENDING')).data.map((q) => q.quoteId)).toEqual([fresh.quoteId]);
  });
});
