import { QUOTE_LIFETIME_MS } from '../../../domain/quote';
import { quoteInMemory } from '../../../../test/support/in-memory/quote-in-memory.kit';

describe('ListQuotesUseCase (in memory)', () => {
  it('pages newest first; quotes past their expiry are settled with the ledger first, so the filter agrees with the statuses shown', async () => {
    const kit = quoteInMemory();
    const create = (organizationId = 'org_1', accountId = 'acct_1') =>
      kit.createQuote.execute({ organizationId, accountId, fromAsset: 'USD', toAsset: 'USDT', fromAmount: '50', toAmount: null });
    const old = await create();
    const otherOrganization = await create('org_2', 'acct_other');
    // Traded by the ledger, unrecorded here: its execute died after the ledger's answer.
    const traded = await create();
    await kit.executeLosingTheReply(traded.quoteId);
    kit.clock.advance(QUOTE_LIFETIME_MS - 1000);
    const fresh = await create();
    kit.clock.advance(1000);

    const page = (status?: 'PENDING' | 'EXPIRED' | 'COMPLETED', cursor: string | null = null, limit = 10) =>
      kit.listQuotes.execute({ organizationId: 'org_1', page: { limit, cursor }, filters: status ? { status } : {} });
    const first = await page(undefined, null, 1);
    expect(first.data.map((q) => [q.quoteId, q.status])).toEqual([[fresh.quoteId, 'PENDING']]);
    const rest = await page(undefined, first.nextCursor, 10);
    expect(rest.data.map((q) => [q.quoteId, q.status, q.transactionId])).toEqual([
      [traded.quoteId, 'COMPLETED', kit.ledger.trades.get(traded.quoteId)?.transactionId],
      [old.quoteId, 'EXPIRED', null],
    ]);
    expect((await page('EXPIRED')).data.map((q) => q.quoteId)).toEqual([old.quoteId]);
    expect((await page('COMPLETED')).data.map((q) => q.quoteId)).toEqual([traded.quoteId]);
    expect((await page('PENDING')).data.map((q) => q.quoteId)).toEqual([fresh.quoteId]);
    // Settled once (stored), and only the listing organization's: the other one's due quote waits for its reader or the sweeper.
    expect(kit.ledger.questions).toBe(2);
    const other = kit.quotes.quotes.get(otherOrganization.quoteId);
    expect(other?.props.status).toBe('PENDING');
    expect(other?.isDue(kit.clock.now())).toBe(true);
  });
});
