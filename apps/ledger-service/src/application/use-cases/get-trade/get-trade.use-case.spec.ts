import { ledgerInMemory } from '../../../../test/support/in-memory/ledger-in-memory.kit';

describe('GetTradeUseCase (in memory)', () => {
  it("answers a quote's trade and commission as posted, and null for no trade or another organization's", async () => {
    const ledger = ledgerInMemory();
    const creator = await ledger.organization({ assets: ['USDC'] });
    const client = await ledger.organization({ assets: ['USDC'], parentOrganizationId: creator.organizationId });
    await ledger.creditFaucet.execute({ ...client, asset: 'USDC', amount: '100', chainName: 'ETHEREUM_SEPOLIA' });
    expect(await ledger.getTrade.execute({ organizationId: client.organizationId, quoteId: 'quote_1' })).toBeNull();

    const posted = await ledger.postTrade.execute({ ...client, quoteId: 'quote_1', fromAsset: 'USDC', fromAmount: '40', toAsset: 'ETH', toAmount: '0.0132', fee: '0.4', commission: '0.1' });
    expect(posted.commission).not.toBeNull();
    expect(await ledger.getTrade.execute({ organizationId: client.organizationId, quoteId: 'quote_1' })).toEqual(posted);
    expect(await ledger.getTrade.execute({ organizationId: creator.organizationId, quoteId: 'quote_1' })).toBeNull();
  });
});
