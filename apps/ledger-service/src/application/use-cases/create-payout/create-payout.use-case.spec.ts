import { ledgerInMemory, type LedgerInMemory } from '../../../../test/support/in-memory/ledger-in-memory.kit';

describe('CreatePayoutUseCase (in memory)', () => {
  let ledger: LedgerInMemory;
  let org: { organizationId: string; accountId: string };
  let beneficiaryId: string;

  beforeEach(async () => {
    ledger = ledgerInMemory({ payoutFees: 'CRYPTO:USDC=0.5,FIAT:USD=1.00' });
    org = await ledger.organization({ assets: ['USDC'] });
    beneficiaryId = ledger.beneficiaries.crypto(org, { chainName: 'BASE_SEPOLIA' });
    await ledger.creditFaucet.execute({ ...org, asset: 'USDC', amount: '100', chainName: 'BASE_SEPOLIA' });
  });

  const payout = (amount: string, bene = beneficiaryId, asset = 'USDC') =>
    ledger.createPayout.execute({ ...org, rail: 'CRYPTO', asset, amount, beneficiaryId: bene, reference: null });
  const fiatPayout = (amount: string, bene: string, asset = 'USD') =>
    ledger.createPayout.execute({ ...org, rail: 'FIAT', asset, amount, beneficiaryId: bene, reference: 'INV-7' });
  const held = () => ledger.journal.platformBalance('payouts_in_flight', 'USDC');

  it('creates an EXPECTED payout holding amount + fee at once, on the beneficiary’s chain, with no event', async () => {
    const events = ledger.outbox.events.length;
    const transaction = await payout('60');
    expect(transaction).toMatchObject({
      type: 'CRYPTO_PAYOUT',
      status: 'EXPECTED',
      amount: '60.000000',
      fee: '0.500000',
      feeAsset: 'USDC',
      beneficiaryId,
      chainName: 'BASE_SEPOLIA',
      failureReason: null,
    });
    expect(ledger.journal.balanceOf(org.accountId, 'USDC')).toBe('39.5');
    expect(held()).toBe('60.5');
    expect(ledger.outbox.events).toHaveLength(events);
  });

  it('keeps the destination the beneficiary had at creation: a later change of the beneficiary moves neither the view nor the settlement', async () => {
    const created = await payout('10');
    const destination = {
      rail: 'CRYPTO',
      nickname: expect.any(String),
      name: 'Ada Lovelace',
      bank: null,
      crypto: { chainName: 'BASE_SEPOLIA', platform: 'EVM', address: '0x52908400098527886E0F7030069857D2E4169EE7' },
    };
    expect(created.destination).toEqual(destination);
    // The beneficiary is PATCHed to the chain's burn address after the payout was created.
    ledger.beneficiaries.update(beneficiaryId, (b) => ({ ...b, nickname: 'Changed', crypto: { ...b.crypto!, address: '0x000000000000000000000000000000000000dEaD' } }));
    expect(await ledger.getTransaction.execute({ organizationId: org.organizationId, transactionId: created.transactionId })).toMatchObject({ destination });
    // The rail settles it to the stored destination: had it read the beneficiary again, the burn address would decline it.
    ledger.clock.advance(ledger.settings.sandboxSettleDelayMs);
    await ledger.settlePayouts.execute();
    ledger.clock.advance(ledger.settings.sandboxSettleDelayMs);
    await ledger.settlePayouts.execute();
    expect(await ledger.getTransaction.execute({ organizationId: org.organizationId, transactionId: created.transactionId })).toMatchObject({ status: 'COMPLETED', destination });
    // The next payout goes where the beneficiary now says: the sandbox chain refuses the burn address.
    await expect(payout('1')).rejects.toMatchObject({ code: 'chain_send_failed' });
  });

  it('pays a beneficiary only from the account it is registered on: another account of the organization is invalid_request, nothing held', async () => {
    const ops = await ledger.openAccount.execute({ organizationId: org.organizationId, name: 'Ops', description: null });
    const fromOps = (bene: string) => ledger.createPayout.execute({ ...org, accountId: ops.accountId, rail: 'CRYPTO', asset: 'USDC', amount: '1', beneficiaryId: bene, reference: null });
    await expect(fromOps(beneficiaryId)).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^beneficiaryId: .*another of your accounts/) });
    const opsWallet = ledger.beneficiaries.crypto({ organizationId: org.organizationId, accountId: ops.accountId });
    await expect(payout('1', opsWallet)).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^beneficiaryId: /) });
    expect(held()).toBe('0');
    expect(ledger.journal.balanceOf(org.accountId, 'USDC')).toBe('100');
    // From its own account the rule passes: the empty Ops account is then short of funds.
    await expect(fromOps(opsWallet)).rejects.toMatchObject({ code: 'insufficient_funds' });
  });

  it('refuses with insufficient_funds when amount + fee is more than the balance, and holds nothing', async () => {
    await expect(payout('99.6')).rejects.toMatchObject({ code: 'insufficient_funds' });
    expect(ledger.journal.balanceOf(org.accountId, 'USDC')).toBe('100');
    await expect(payout('99.5')).resolves.toMatchObject({ status: 'EXPECTED' });
    expect(ledger.journal.balanceOf(org.accountId, 'USDC')).toBe('0');
  });

  it('refuses a crypto asset on the fiat rail, an unverified organization and another organization’s account', async () => {
    await expect(fiatPayout('1', ledger.beneficiaries.bank(org), 'USDC')).rejects.toMatchObject({ code: 'invalid_request' });
    const other = await ledger.organization();
    await expect(ledger.createPayout.execute({ ...org, accountId: other.accountId, rail: 'CRYPTO', asset: 'USDC', amount: '1', beneficiaryId, reference: null })).rejects.toMatchObject({
      code: 'account_not_found',
    });
    ledger.directory.set({ organizationId: org.organizationId, verificationStatus: 'PENDING' });
    await expect(payout('1')).rejects.toMatchObject({ code: 'verification_required' });
  });

  it('answers beneficiary_not_found for an unknown beneficiary and for another organization’s', async () => {
    const other = await ledger.organization();
    await expect(payout('1', 'bene_ffffffffffffffffffffffffffffffff')).rejects.toMatchObject({ code: 'beneficiary_not_found' });
    await expect(payout('1', ledger.beneficiaries.crypto(other))).rejects.toMatchObject({ code: 'beneficiary_not_found' });
    expect(held()).toBe('0');
  });

  it('pays only an ACTIVE beneficiary: BLOCKED is beneficiary_blocked, INACTIVE and ARCHIVED invalid_request, nothing held', async () => {
    ledger.beneficiaries.setStatus(beneficiaryId, 'BLOCKED');
    await expect(payout('1')).rejects.toMatchObject({ code: 'beneficiary_blocked' });
    ledger.beneficiaries.setStatus(beneficiaryId, 'INACTIVE');
    await expect(payout('1')).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('is INACTIVE') });
    ledger.beneficiaries.setStatus(beneficiaryId, 'ARCHIVED');
    await expect(payout('1')).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('is ARCHIVED') });
    expect(held()).toBe('0');
    expect(ledger.journal.balanceOf(org.accountId, 'USDC')).toBe('100');
  });

  it('needs the rail’s beneficiary type and an asset the beneficiary takes', async () => {
    // A bank beneficiary on the crypto rail, a crypto one on the fiat rail.
    await expect(payout('1', ledger.beneficiaries.bank(org))).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('BANK beneficiary') });
    await expect(fiatPayout('1', beneficiaryId)).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('CRYPTO beneficiary') });
    // Fiat: the asset is the bank account's currency.
    await expect(fiatPayout('1', ledger.beneficiaries.bank(org, { currency: 'EUR' }))).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('paid in EUR, not USD'),
    });
    // Crypto: the chain must carry the asset (no ETH on Tron), and a beneficiary registered for one asset takes only that one.
    await ledger.creditFaucet.execute({ ...org, asset: 'USDC', amount: '1', chainName: 'TRON_NILE' });
    const tron = ledger.beneficiaries.crypto(org, { chainName: 'TRON_NILE', address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8' });
    await expect(payout('1', tron, 'ETH')).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('not carried on TRON_NILE') });
    const usdtOnly = ledger.beneficiaries.crypto(org, { asset: 'USDT' });
    await expect(payout('1', usdtOnly)).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('USDT only') });
    expect(held()).toBe('0');
  });

  it('the sandbox chain refuses its zero and burn addresses with chain_send_failed before anything is held', async () => {
    for (const address of ['0x0000000000000000000000000000000000000000', '0x000000000000000000000000000000000000dEaD', '0x000000000000000000000000000000000000dead']) {
      const burn = ledger.beneficiaries.crypto(org, { address });
      await expect(payout('10', burn)).rejects.toMatchObject({ code: 'chain_send_failed', message: expect.stringContaining('ETHEREUM_SEPOLIA') });
    }
    expect(held()).toBe('0');
    expect(ledger.journal.balanceOf(org.accountId, 'USDC')).toBe('100');
    expect(ledger.transactions.transactions.size).toBe(1);
  });

  it('a fiat payout to a bank beneficiary in its currency holds amount + the fiat fee, with its reference', async () => {
    const usd = await ledger.organization({ assets: ['USDC'] });
    // Fiat reaches an account in the sandbox through a trade (USDC → USD), as it does here.
    const bank = ledger.beneficiaries.bank(usd);
    await expect(
      ledger.createPayout.execute({ ...usd, rail: 'FIAT', asset: 'USD', amount: '10.00', beneficiaryId: bank, reference: 'INV-7' }),
    ).rejects.toMatchObject({ code: 'insufficient_funds' });
    await ledger.creditFaucet.execute({ ...usd, asset: 'USDC', amount: '50', chainName: 'BASE_SEPOLIA' });
    await ledger.postTrade.execute({
      ...usd,
      quoteId: 'quote_00000000000000000000000000000001',
      fromAsset: 'USDC',
      fromAmount: '50',
      toAsset: 'USD',
      toAmount: '50.00',
      fee: '0',
      commission: '0',
    });
    const transaction = await ledger.createPayout.execute({ ...usd, rail: 'FIAT', asset: 'USD', amount: '10.00', beneficiaryId: bank, reference: 'INV-7' });
    expect(transaction).toMatchObject({ type: 'FIAT_PAYOUT', status: 'EXPECTED', amount: '10.00', fee: '1.00', feeAsset: 'USD', chainName: null, reference: 'INV-7', beneficiaryId: bank });
    expect(ledger.journal.balanceOf(usd.accountId, 'USD')).toBe('39');
  });

  it('outside the sandbox, with only the sandbox rails bound, refuses every payout with service_not_enabled before asking or holding anything', async () => {
    const production = ledgerInMemory({ environment: 'production', payoutFees: 'CRYPTO:USDC=0.5' });
    const client = await production.organization();
    const wallet = production.beneficiaries.crypto(client);
    for (const rail of ['CRYPTO', 'FIAT'] as const) {
      await expect(
        production.createPayout.execute({ ...client, rail, asset: rail === 'CRYPTO' ? 'USDC' : 'USD', amount: '1', beneficiaryId: wallet, reference: null }),
      ).rejects.toMatchObject({ code: 'service_not_enabled', message: expect.stringContaining('Nothing was held') });
    }
    // Refused before the verification check and the beneficiary lookup: an unknown beneficiary answers the same.
    production.directory.set({ organizationId: client.organizationId, verificationStatus: 'PENDING' });
    await expect(
      production.createPayout.execute({ ...client, rail: 'CRYPTO', asset: 'USDC', amount: '1', beneficiaryId: 'bene_ffffffffffffffffffffffffffffffff', reference: null }),
    ).rejects.toMatchObject({ code: 'service_not_enabled' });
    expect(production.transactions.transactions.size).toBe(0);
    expect(production.journal.entries).toHaveLength(0);
  });
});
