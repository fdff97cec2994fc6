import { TradeSizeLimits } from '../../../domain/trade-size-limits';
import { quoteInMemory } from '../../../../test/support/in-memory/quote-in-memory.kit';

const sell = (overrides: Record<string, unknown> = {}) => ({ organizationId: 'org_1', accountId: 'acct_1', fromAsset: 'USD', toAsset: 'EUR', fromAmount: '100.00', toAmount: null, ...overrides });

describe('CreateQuoteUseCase (in memory)', () => {
  it('prices a sale at the mid-rate less the spread in force, for five minutes (api-decisions §6)', async () => {
    const kit = quoteInMemory();
    // USD → EUR at 1 / 1.08; fee 1.00 USD; 99.00 / 1.08 = 91.666… → 91.66 EUR.
    expect(await kit.createQuote.execute(sell())).toEqual({
      object: 'quote',
      quoteId: 'quote_00000000000000000000000000000001',
      accountId: 'acct_1',
      fromAsset: 'USD',
      toAsset: 'EUR',
      fromAmount: '100.00',
      toAmount: '91.66',
      appliedRate: '0.9166',
      spread: { fee: '1.00', asset: 'USD' },
      status: 'PENDING',
      transactionId: null,
      failureReason: null,
      expiresAt: '2026-11-23T08:05:00.000Z',
      createdAt: '2026-11-23T08:00:00.000Z',
    });
  });

  it('prices a purchase with the smallest fromAmount, and no spread object under a 0 bps tier', async () => {
    const kit = quoteInMemory();
    kit.terms.tiers.set('org_1', { key: 'at-cost', label: 'At cost', spreadBps: 0, referrerShareBps: 0 });
    // 0.5 BTC at 97000 USDC: 48500.000000 USDC exactly.
    const quote = await kit.createQuote.execute(sell({ fromAsset: 'USDC', toAsset: 'BTC', fromAmount: null, toAmount: '0.5' }));
    expect(quote).toMatchObject({ fromAmount: '48500.000000', toAmount: '0.50000000', spread: null, appliedRate: '0.000010309278350515' });
  });

  it('keeps the spread it was made with: a later tier change reprices only new quotes', async () => {
    const kit = quoteInMemory();
    const before = await kit.createQuote.execute(sell());
    kit.terms.tiers.set('org_1', { key: 'vip', label: 'VIP', spreadBps: 30, referrerShareBps: 30 });
    const after = await kit.createQuote.execute(sell());
    expect(after.spread).toEqual({ fee: '0.30', asset: 'USD' });
    expect((await kit.getQuote.execute({ organizationId: 'org_1', quoteId: before.quoteId })).spread).toEqual({ fee: '1.00', asset: 'USD' });
    expect(kit.quotes.quotes.get(after.quoteId)?.props.pricing).toEqual({ spreadBps: 30, referrerShareBps: 30, feeScale: 2 });
  });

  it('refuses with the documented codes, creating nothing', async () => {
    const kit = quoteInMemory();
    const refused = (overrides: Record<string, unknown>) => kit.createQuote.execute(sell(overrides));
    await expect(refused({ toAmount: '5' })).rejects.toMatchObject({ code: 'invalid_request', message: 'fromAmount: give exactly one of fromAmount and toAmount' });
    await expect(refused({ fromAmount: null })).rejects.toMatchObject({ code: 'invalid_request', message: 'fromAmount: give exactly one of fromAmount and toAmount' });
    await expect(refused({ fromAmount: '1.001' })).rejects.toMatchObject({ code: 'invalid_request', message: 'fromAmount: USD takes at most 2 decimals' });
    await expect(refused({ fromAsset: 'GBP' })).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^fromAsset: GBP/) });
    await expect(refused({ toAsset: 'USD' })).rejects.toMatchObject({ code: 'swap_direction_not_allowed' });
    await expect(refused({ fromAmount: '0.99' })).rejects.toMatchObject({ code: 'trade_size_out_of_bounds', message: expect.stringContaining('from 1 to 1000000 USD') });
    await expect(refused({ accountId: 'acct_other' })).rejects.toMatchObject({ code: 'account_not_found' });
    await expect(refused({ accountId: 'acct_missing' })).rejects.toMatchObject({ code: 'account_not_found' });
    kit.terms.accounts.set('acct_1', { organizationId: 'org_1', status: 'SUSPENDED' });
    await expect(refused({})).rejects.toMatchObject({ code: 'invalid_request', message: 'accountId: account acct_1 is SUSPENDED: only an ACTIVE account can trade' });
    expect(kit.quotes.quotes.size).toBe(0);
  });

  it('checks a purchase against the size bounds on the fromAmount it costs', async () => {
    const kit = quoteInMemory();
    kit.settings.tradeLimits = TradeSizeLimits.parse('USD/EUR=1:100');
    await expect(kit.createQuote.execute(sell({ fromAmount: null, toAmount: '92.00' }))).rejects.toMatchObject({ code: 'trade_size_out_of_bounds', message: expect.stringContaining('from 1 to 100 USD') });
    await expect(kit.createQuote.execute(sell({ fromAmount: null, toAmount: '91.00' }))).resolves.toMatchObject({ toAmount: '91.00' });
  });
});
