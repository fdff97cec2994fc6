import { QUOTE_LIFETIME_MS } from '../../../domain/quote';
import { quoteInMemory } from '../../../../test/support/in-memory/quote-in-memory.kit';

describe('GetQuoteUseCase (in memory)', () => {
  it('reads a quote as of now (EXPIRED at expiresAt, stored or not); another organization gets quote_not_found', async () => {
    const kit = quoteInMemory();
    const { quoteId } = await kit.createQuote.execute({ organizationId: 'org_1', accountId: 'acct_1', fromAsset: 'EUR', toAsset: 'USDC', fromAmount: '10', toAmount: null });
    kit.clock.advance(QUOTE_LIFETIME_MS - 1);
    expect((await kit.getQuote.execute({ organizationId: 'org_1', quoteId })).status).toBe('PENDING');
    kit.clock.advance(1);
    expect((await kit.getQuote.execute({ organizationId: 'org_1', quoteId })).status).toBe('EXPIRED');
    expect(kit.quotes.quotes.get(quoteId)?.props.status).toBe('PENDING');
    await expect(kit.getQuote.execute({ organizationId: 'org_2', quoteId })).rejects.toMatchObject({ code: 'quote_not_found', message: `No quote ${quoteId} was found.` });
    await expect(kit.getQuote.execute({ organizationId: 'org_1', quoteId: 'quote_missing' })).rejects.toMatchObject({ code: 'quote_not_found' });
  });
});
