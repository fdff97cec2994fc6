import { DomainError, newId, SANDBOX_CHAINS } from '@pfs/contracts';
import { isolateQueues } from '@pfs/testing';
import { createFundingMethodTestKit, type FundingMethodTestKit } from '../support/funding-method-test-kit';

isolateQueues('ledger-provision');

const ALPHABETICAL_CHAINS = [...SANDBOX_CHAINS].sort();

describe('ProvisionFundingMethodsUseCase (real PostgreSQL)', () => {
  let kit: FundingMethodTestKit;
  const provisionedEvents = async (organizationId: string) =>
    (await kit.prisma.ledgerOutboxEvent.findMany({ where: { type: 'funding-methods.provisioned' }, orderBy: { createdAt: 'asc' } }))
      .map((row) => row.payload as { data: { organizationId: string } })
      .filter((event) => event.data.organizationId === organizationId);

  beforeAll(() => {
    kit = createFundingMethodTestKit('provision-spec');
  });

  afterAll(async () => {
    await kit.close();
  });

  it('provisions the asset on the primary account when no account is named, and returns the same methods again', async () => {
    const { organizationId, primaryId } = await kit.openOrganization(1);

    const first = await kit.provision.execute({ organizationId, accountId: null, asset: 'USDC' });
    const again = await kit.provision.execute({ organizationId, accountId: primaryId, asset: 'USDC' });

    expect(first.map((method) => method.chainName)).toEqual(ALPHABETICAL_CHAINS);
    expect(first.every((method) => method.accountId === primaryId && method.type === 'CRYPTO_ADDRESS' && method.createdAt === '2026-11-21T04:44:09.123Z')).toBe(true);
    expect(again).toEqual(first);
    expect(await kit.prisma.ledgerFundingMethod.count({ where: { accountId: primaryId } })).toBe(6);
    // The account view lists exactly the same objects.
    const account = await kit.accounts.findById(primaryId);
    expect(account?.fundingMethods.map((method) => method.id)).toEqual(first.map((method) => method.fundingMethodId));
  });

  it('provisions on a named secondary account of the organization, separately from the primary one', async () => {
    const { organizationId, primaryId, otherIds } = await kit.openOrganization(1);

    const usd = await kit.provision.execute({ organizationId, accountId: otherIds[0], asset: 'USD' });

    expect(usd).toEqual([
      expect.objectContaining({ accountId: otherIds[0], asset: 'USD', type: 'BANK_ACCOUNT', bank: expect.objectContaining({ reference: expect.any(String) }) }),
    ]);
    expect(await kit.prisma.ledgerFundingMethod.count({ where: { accountId: primaryId } })).toBe(0);
  });

  it('keeps several assets apart on one account, and BTC provisions nothing', async () => {
    const { organizationId, primaryId } = await kit.openOrganization();

    const eth = await kit.provision.execute({ organizationId, accountId: null, asset: 'ETH' });
    const eur = await kit.provision.execute({ organizationId, accountId: null, asset: 'EUR' });
    const btc = await kit.provision.execute({ organizationId, accountId: null, asset: 'BTC' });

    expect(eth.map((method) => method.chainName)).toEqual(['ARBITRUM_SEPOLIA', 'BASE_SEPOLIA', 'BSC_TESTNET', 'ETHEREUM_SEPOLIA']);
    expect(eur).toHaveLength(1);
    expect(btc).toEqual([]);
    expect(await kit.prisma.ledgerFundingMethod.count({ where: { accountId: primaryId } })).toBe(5);
  });

  it('provisions once when the first calls for an account and asset race', async () => {
    const { organizationId, primaryId } = await kit.openOrganization();

    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, index) => kit.provision.execute({ organizationId, accountId: index % 2 ? primaryId : null, asset: index < 3 ? 'USDT' : 'USD' })),
    );

    expect(answers.slice(1, 3)).toEqual([answers[0], answers[0]]);
    expect(answers.slice(4)).toEqual([answers[3], answers[3]]);
    expect(await kit.prisma.ledgerFundingMethod.count({ where: { accountId: primaryId, asset: 'USDT' } })).toBe(6);
    expect(await kit.prisma.ledgerFundingMethod.count({ where: { accountId: primaryId, asset: 'USD' } })).toBe(1);
  });

  it("answers account_not_found for another organization's account, an unknown one and a missing primary account", async () => {
    const owner = await kit.openOrganization();
    const stranger = await kit.openOrganization();

    const failures = await Promise.all([
      kit.provision.execute({ organizationId: stranger.organizationId, accountId: owner.primaryId, asset: 'USDC' }).catch((error: unknown) => error),
      kit.provision.execute({ organizationId: owner.organizationId, accountId: newId('account'), asset: 'USDC' }).catch((error: unknown) => error),
      kit.provision.execute({ organizationId: newId('organization'), accountId: null, asset: 'USDC' }).catch((error: unknown) => error),
    ]);

    for (const failure of failures) {
      expect(failure).toBeInstanceOf(DomainError);
      expect((failure as DomainError).code).toBe('account_not_found');
    }
    expect((failures[0] as DomainError).message).toBe(`No account ${owner.primaryId} was found.`);
    expect(await kit.prisma.ledgerFundingMethod.count({ where: { accountId: owner.primaryId } })).toBe(0);
    expect(await provisionedEvents(owner.organizationId)).toEqual([]);
    expect(await provisionedEvents(stranger.organizationId)).toEqual([]);
  });

  it('records funding-methods.provisioned with the methods in the same transaction, on every call, BTC included', async () => {
    const { organizationId, primaryId } = await kit.openOrganization();
    const usdc = await kit.provision.execute({ organizationId, accountId: null, asset: 'USDC' });
    await kit.provision.execute({ organizationId, accountId: primaryId, asset: 'USDC' });
    await kit.provision.execute({ organizationId, accountId: null, asset: 'BTC' });

    const expected = (asset: string, fundingMethodIds: string[]) => ({
      type: 'funding-methods.provisioned',
      source: 'ledger',
      data: { organizationId, accountId: primaryId, asset, fundingMethodIds, provisionedAt: '2026-11-21T04:44:09.123Z' },
    });
    const ids = usdc.map((method) => method.fundingMethodId);
    // The clock is fixed, so the rows share created_at: compare in asset order.
    const events = (await provisionedEvents(organizationId)) as Array<{ data: { organizationId: string; asset: string } }>;
    expect(events.sort((a, b) => a.data.asset.localeCompare(b.data.asset))).toEqual([
      expect.objectContaining(expected('BTC', [])),
      expect.objectContaining(expected('USDC', ids)),
      expect.objectContaining(expected('USDC', ids)),
    ]);
  });

  it('answers not_found for an asset outside the catalog', async () => {
    const { organizationId } = await kit.openOrganization();
    await expect(kit.provision.execute({ organizationId, accountId: null, asset: 'DOGE' })).rejects.toMatchObject({
      code: 'not_found',
      message: 'No asset DOGE was found.',
    });
  });
});
