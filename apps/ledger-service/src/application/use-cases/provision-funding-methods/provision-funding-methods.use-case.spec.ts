import { SANDBOX_CHAINS } from '@pfs/contracts';
import { fundingMethodInMemory, type FundingMethodInMemory } from '../../../../test/support/in-memory/funding-method-in-memory.kit';

describe('ProvisionFundingMethodsUseCase (in memory)', () => {
  let ledger: FundingMethodInMemory;

  beforeEach(() => {
    ledger = fundingMethodInMemory();
  });

  it('stores one address per chain on the primary account when none is named, and answers the same methods again', async () => {
    const { organizationId, primaryId } = await ledger.openOrganization();
    const first = await ledger.provision.execute({ organizationId, accountId: null, asset: 'USDC' });
    expect(first.map((method) => method.chainName)).toEqual([...SANDBOX_CHAINS].sort());
    expect(first.every((method) => method.accountId === primaryId && method.type === 'CRYPTO_ADDRESS' && method.createdAt === ledger.clock.now().toISOString())).toBe(true);
    expect(await ledger.provision.execute({ organizationId, accountId: primaryId, asset: 'USDC' })).toEqual(first);
    expect(ledger.fundingMethods.methods).toHaveLength(first.length);
  });

  it('provisions on a named secondary account (a bank account for USD), keeps assets apart, and nothing for BTC', async () => {
    const { organizationId, primaryId, otherIds } = await ledger.openOrganization(1);
    expect(await ledger.provision.execute({ organizationId, accountId: otherIds[0], asset: 'USD' })).toEqual([
      expect.objectContaining({ accountId: otherIds[0], asset: 'USD', type: 'BANK_ACCOUNT', bank: expect.objectContaining({ reference: expect.any(String) }) }),
    ]);
    const eth = await ledger.provision.execute({ organizationId, accountId: null, asset: 'ETH' });
    expect(eth.map((method) => method.chainName)).toEqual(['ARBITRUM_SEPOLIA', 'BASE_SEPOLIA', 'BSC_TESTNET', 'ETHEREUM_SEPOLIA']);
    expect(await ledger.provision.execute({ organizationId, accountId: null, asset: 'BTC' })).toEqual([]);
    expect(ledger.fundingMethods.methods.filter((method) => method.accountId === primaryId)).toHaveLength(4);
  });

  it('appends funding-methods.provisioned with every method of the asset on each call, BTC included', async () => {
    const { organizationId, primaryId } = await ledger.openOrganization();
    const usdc = await ledger.provision.execute({ organizationId, accountId: null, asset: 'USDC' });
    await ledger.provision.execute({ organizationId, accountId: primaryId, asset: 'USDC' });
    await ledger.provision.execute({ organizationId, accountId: null, asset: 'BTC' });
    const provisionedAt = ledger.clock.now().toISOString();
    const ids = usdc.map((method) => method.fundingMethodId);
    expect(ledger.outbox.dataOf('funding-methods.provisioned')).toEqual([
      { organizationId, accountId: primaryId, asset: 'USDC', fundingMethodIds: ids, provisionedAt },
      { organizationId, accountId: primaryId, asset: 'USDC', fundingMethodIds: ids, provisionedAt },
      { organizationId, accountId: primaryId, asset: 'BTC', fundingMethodIds: [], provisionedAt },
    ]);
  });

  it('answers account_not_found for another organization’s account, an unknown one and a missing primary account, recording nothing', async () => {
    const owner = await ledger.openOrganization();
    const stranger = await ledger.openOrganization();
    await expect(ledger.provision.execute({ organizationId: stranger.organizationId, accountId: owner.primaryId, asset: 'USDC' })).rejects.toMatchObject({
      code: 'account_not_found',
      message: `No account ${owner.primaryId} was found.`,
    });
    await expect(ledger.provision.execute({ organizationId: owner.organizationId, accountId: 'acct_ffffffffffffffffffffffffffffffff', asset: 'USDC' })).rejects.toMatchObject({ code: 'account_not_found' });
    await expect(ledger.provision.execute({ organizationId: 'org_ffffffffffffffffffffffffffffffff', accountId: null, asset: 'USDC' })).rejects.toMatchObject({ code: 'account_not_found' });
    expect({ methods: ledger.fundingMethods.methods.length, events: ledger.outbox.events.length }).toEqual({ methods: 0, events: 0 });
  });

  it('answers not_found for an asset outside the catalog, recording nothing', async () => {
    const { organizationId } = await ledger.openOrganization();
    await expect(ledger.provision.execute({ organizationId, accountId: null, asset: 'DOGE' })).rejects.toMatchObject({ code: 'not_found', message: 'No asset DOGE was found.' });
    expect({ methods: ledger.fundingMethods.methods.length, events: ledger.outbox.events.length }).toEqual({ methods: 0, events: 0 });
  });
});
