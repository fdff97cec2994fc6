import { ledgerInMemory, type LedgerInMemory } from '../../../../test/support/in-memory/ledger-in-memory.kit';

describe('CreditFaucetUseCase (in memory)', () => {
  let ledger: LedgerInMemory;
  let org: { organizationId: string; accountId: string };

  beforeEach(async () => {
    ledger = ledgerInMemory();
    org = await ledger.organization({ assets: ['USDC'] });
  });

  const credit = (overrides: Partial<{ organizationId: string; accountId: string; asset: string; amount: string; chainName: string }> = {}) =>
    ledger.creditFaucet.execute({ ...org, asset: 'USDC', amount: '25.5', chainName: 'ETHEREUM_SEPOLIA', ...overrides });

  it('credits at once: a COMPLETED CRYPTO_PAYIN, a balanced entry, one event EXPECTED → COMPLETED for the receiver', async () => {
    const transaction = await credit();
    expect(transaction).toMatchObject({
      object: 'transaction',
      type: 'CRYPTO_PAYIN',
      status: 'COMPLETED',
      accountId: org.accountId,
      amount: '25.500000',
      asset: 'USDC',
      chainName: 'ETHEREUM_SEPOLIA',
      fee: null,
    });
    expect(ledger.journal.balanceOf(org.accountId, 'USDC')).toBe('25.5');
    expect(ledger.journal.platformBalance('external_deposits', 'USDC')).toBe('-25.5');
    expect(ledger.journal.booksByAsset()).toEqual({ USDC: '0' });
    expect(ledger.outbox.dataOf('transaction.status.updated')).toEqual([
      {
        object: 'transaction',
        transaction_id: transaction.transactionId,
        transaction_type: 'CRYPTO_PAYIN',
        status: 'COMPLETED',
        previous_status: 'EXPECTED',
        account_id: org.accountId,
        organization_id: org.organizationId,
        role: 'RECEIVER',
        occurred_at: ledger.clock.now().toISOString(),
      },
    ]);
    expect(ledger.outbox.events[ledger.outbox.events.length - 1]).toMatchObject({
      audience: { organizationId: org.organizationId, parentOrganizationId: null, parentHoldsActiveLoa: false },
    });
  });

  it('carries the creator and its LOA in the audience of a client’s event', async () => {
    const broker = await ledger.organization();
    const client = await ledger.organization({ assets: ['USDC'], parentOrganizationId: broker.organizationId });
    ledger.directory.set({ organizationId: client.organizationId, parentHoldsActiveLoa: true });
    await credit(client);
    expect(ledger.outbox.events[ledger.outbox.events.length - 1]).toMatchObject({
      audience: { organizationId: client.organizationId, parentOrganizationId: broker.organizationId, parentHoldsActiveLoa: true },
    });
  });

  it('refuses an organization that is not approved with verification_required, crediting nothing', async () => {
    ledger.directory.set({ organizationId: org.organizationId, verificationStatus: 'ON_HOLD' });
    await expect(credit()).rejects.toMatchObject({ code: 'verification_required' });
    expect(ledger.journal.entries).toHaveLength(0);
  });

  it('answers account_not_found for another organization’s account', async () => {
    const other = await ledger.organization({ assets: ['USDC'] });
    await expect(credit({ accountId: other.accountId })).rejects.toMatchObject({ code: 'account_not_found' });
  });

  it('answers account_not_found for an unknown account', async () => {
    await expect(credit({ accountId: 'acct_ffffffffffffffffffffffffffffffff' })).rejects.toMatchObject({ code: 'account_not_found' });
  });

  it('names the POST /v1/funding-methods call when the asset is not activated', async () => {
    await expect(credit({ asset: 'USDT' })).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining(`POST /v1/funding-methods with {"asset":"USDT","accountId":"${org.accountId}"}`),
    });
  });

  it('names the chains the asset has when the chain is wrong', async () => {
    const eth = await ledger.organization({ assets: ['ETH'] });
    await expect(credit({ ...eth, asset: 'ETH', amount: '1', chainName: 'SOLANA_DEVNET' })).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/no ETH deposit address on SOLANA_DEVNET; its ETH addresses are on .*ETHEREUM_SEPOLIA/),
    });
  });

  it('refuses a fiat asset', async () => {
    await expect(credit({ asset: 'USD', amount: '1' })).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('fiat asset') });
  });

  it('refuses a crypto asset with no address on any sandbox chain (BTC)', async () => {
    const btc = await ledger.organization({ assets: ['BTC'] });
    await expect(credit({ ...btc, asset: 'BTC', amount: '1' })).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('BTC has no deposit address on any sandbox chain'),
    });
  });

  it.each([
    ['an amount beyond the asset’s scale', { amount: '1.0000001' }, expect.stringContaining('at most 6 decimals')],
    ['zero', { amount: '0' }, expect.any(String)],
    ['an unknown asset', { asset: 'DOGE' }, expect.stringContaining('DOGE')],
    ['more than the cap per call', { amount: '1000000.000001' }, expect.stringContaining('at most 1000000 USDC')],
  ])('refuses %s, crediting nothing', async (_case, overrides, message) => {
    await expect(credit(overrides)).rejects.toMatchObject({ code: 'invalid_request', message });
    expect(ledger.journal.entries).toHaveLength(0);
  });

  it('credits the cap itself', async () => {
    expect((await credit({ amount: '1000000' })).amount).toBe('1000000.000000');
  });

  describe('takes its cap from configuration', () => {
    beforeEach(async () => {
      ledger = ledgerInMemory({ faucetMaxAmount: '10' });
      org = await ledger.organization({ assets: ['USDC'] });
    });

    it('refuses more than the configured cap, naming it', async () => {
      await expect(credit({ amount: '10.000001' })).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('at most 10 USDC') });
    });

    it('credits the configured cap itself', async () => {
      await expect(credit({ amount: '10' })).resolves.toMatchObject({ status: 'COMPLETED' });
    });
  });

  it('does not exist outside the sandbox', async () => {
    ledger = ledgerInMemory({ environment: 'production' });
    org = await ledger.organization({ assets: ['USDC'] });
    await expect(credit()).rejects.toMatchObject({ code: 'not_found' });
  });
});
