import { quoteInMemory } from '../../../../test/support/in-memory/quote-in-memory.kit';

describe('GetPricingUseCase (in memory)', () => {
  it('answers the platform default without a tier, and the tier’s spread and share with one: what the next quote is priced by', async () => {
    const kit = quoteInMemory();
    expect(await kit.getPricing.execute({ organizationId: 'org_1' })).toEqual({ tier: null, spreadBps: 100, referrerShareBps: 0 });
    kit.terms.tiers.set('org_1', { key: 'vip', label: 'VIP', spreadBps: 30, referrerShareBps: 30 });
    expect(await kit.getPricing.execute({ organizationId: 'org_1' })).toEqual({ tier: { key: 'vip', label: 'VIP' }, spreadBps: 30, referrerShareBps: 30 });
    const quote = await kit.createQuote.execute({ organizationId: 'org_1', accountId: 'acct_1', fromAsset: 'USD', toAsset: 'EUR', fromAmount: '100', toAmount: null });
    expect(kit.quotes.quotes.get(quote.quoteId)?.props.pricing).toMatchObject({ spreadBps: 30, referrerShareBps: 30 });
  });
});
