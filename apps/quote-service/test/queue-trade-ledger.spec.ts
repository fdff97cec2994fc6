import { Big } from '@pfs/contracts';
import type { CommandBus, SendOptions } from '@pfs/messaging';
import { runWithRequestId } from '@pfs/platform';
import { QueueTradeLedger, RECORD_MARGIN_MS, tradePostTimeoutMs } from '../src/adapters/ledger/queue-trade-ledger';
import { Quote, QUOTE_LIFETIME_MS } from '../src/domain/quote';
import { priceSelling } from '../src/domain/quote-pricing';

/* What the quote service puts on the ledger's queue for a trade: its command id, and a deadline the ledger commits by. */
describe('QueueTradeLedger', () => {
  const now = Date.parse('2026-11-23T08:00:00.000Z');
  const expiresAt = new Date(now + QUOTE_LIFETIME_MS);

  it('a post waits, and the ledger may commit, until the earlier of the quote’s expiry and the execute’s deadline less the margin to record it', () => {
    expect(tradePostTimeoutMs(expiresAt, now + 5000, now)).toBe(5000 - RECORD_MARGIN_MS);
    expect(tradePostTimeoutMs(expiresAt, now + QUOTE_LIFETIME_MS + 60_000, now)).toBe(QUOTE_LIFETIME_MS);
    expect(tradePostTimeoutMs(expiresAt, now + QUOTE_LIFETIME_MS + 60_000, now + QUOTE_LIFETIME_MS - 40)).toBe(40);
    // Outside a command (no deadline): up to the expiry.
    expect(tradePostTimeoutMs(expiresAt, undefined, now)).toBe(QUOTE_LIFETIME_MS);
    // Nothing left: the shortest wait the bus takes, so the ledger drops the post.
    expect(tradePostTimeoutMs(expiresAt, now + 100, now)).toBe(1);
    expect(tradePostTimeoutMs(expiresAt, undefined, now + QUOTE_LIFETIME_MS + 1)).toBe(1);
  });

  it('sends trades.post under the quote’s own command id, with that timeout, in the execute’s trace', async () => {
    const sent: Array<{ name: string; payload: unknown; options: SendOptions }> = [];
    const bus = {
      send: async (_service: string, name: string, payload: unknown, options: SendOptions) => {
        sent.push({ name, payload, options });
        return { trade: { transactionId: 'txn_1' }, commission: null };
      },
    } as unknown as CommandBus;
    const terms = priceSelling(new Big('10'), { midRate: new Big('0.92'), spreadBps: 100, fromScale: 2, toScale: 2 });
    const quote = Quote.create({ id: 'quote_1', organizationId: 'org_1', accountId: 'acct_1', fromAsset: 'USD', toAsset: 'EUR', terms, pricing: { spreadBps: 100, referrerShareBps: 0, feeScale: 2 }, now: new Date() });
    const deadline = Date.now() + 3000;

    await runWithRequestId('req_trace', () => new QueueTradeLedger(bus).post(quote), deadline);
    expect(sent).toHaveLength(1);
    const [{ name, options }] = sent;
    expect(name).toBe('trades.post');
    expect(options).toMatchObject({ requestId: 'req_trace', commandId: 'trade:quote_1' });
    expect(options.timeoutMs).toBeGreaterThan(0);
    expect(options.timeoutMs).toBeLessThanOrEqual(3000 - RECORD_MARGIN_MS);
  });
});
