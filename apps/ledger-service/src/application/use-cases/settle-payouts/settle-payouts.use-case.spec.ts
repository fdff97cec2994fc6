import { ledgerInMemory, type LedgerInMemory } from '../../../../test/support/in-memory/ledger-in-memory.kit';

describe('SettlePayoutsUseCase (in memory)', () => {
  const DELAY = 2000;
  let ledger: LedgerInMemory;
  let org: { organizationId: string; accountId: string };

  beforeEach(async () => {
    ledger = ledgerInMemory({ payoutFees: 'CRYPTO:USDC=0.5,FIAT:USD=1.00' });
    org = await ledger.organization({ assets: ['USDC'] });
    await ledger.creditFaucet.execute({ ...org, asset: 'USDC', amount: '100', chainName: 'ETHEREUM_SEPOLIA' });
  });

  const cryptoPayout = (amount: string) =>
    ledger.createPayout.execute({ ...org, rail: 'CRYPTO', asset: 'USDC', amount, beneficiaryId: ledger.beneficiaries.crypto(org), reference: null });
  /** 60 USD in the account, through a USDC → USD trade. */
  const withUsd = async () => {
    await ledger.postTrade.execute({ ...org, quoteId: 'quote_00000000000000000000000000000001', fromAsset: 'USDC', fromAmount: '60', toAsset: 'USD', toAmount: '60.00', fee: '0', commission: '0' });
  };
  const fiatPayout = (amount: string) =>
    ledger.createPayout.execute({ ...org, rail: 'FIAT', asset: 'USD', amount, beneficiaryId: ledger.beneficiaries.bank(org), reference: 'INV-1' });
  const statusOf = async (transactionId: string) => (await ledger.getTransaction.execute({ organizationId: org.organizationId, transactionId })).status;
  const events = (transactionId: string) =>
    ledger.outbox.events
      .filter((event) => event.type === 'transaction.status.updated' && (event.data as { transaction_id: string }).transaction_id === transactionId)
      .map((event) => event.data as Record<string, unknown>);

  it('moves a payout one step per SANDBOX_SETTLE_DELAY: EXPECTED → LOCKED → COMPLETED, each with its event', async () => {
    const payout = await cryptoPayout('10');
    ledger.clock.advance(DELAY - 1);
    expect(await ledger.settlePayouts.execute()).toEqual({ moved: 0, failed: [] });
    expect(await statusOf(payout.transactionId)).toBe('EXPECTED');

    ledger.clock.advance(1);
    expect(await ledger.settlePayouts.execute()).toEqual({ moved: 1, failed: [] });
    expect(await statusOf(payout.transactionId)).toBe('LOCKED');
    // Just locked: not due again until another delay has passed.
    expect(await ledger.settlePayouts.execute()).toEqual({ moved: 0, failed: [] });

    ledger.clock.advance(DELAY);
    expect(await ledger.settlePayouts.execute()).toEqual({ moved: 1, failed: [] });
    expect(await statusOf(payout.transactionId)).toBe('COMPLETED');
    ledger.clock.advance(DELAY * 10);
    expect(await ledger.settlePayouts.execute()).toEqual({ moved: 0, failed: [] });

    expect(events(payout.transactionId)).toEqual([
      expect.objectContaining({ status: 'LOCKED', previous_status: 'EXPECTED', role: 'SENDER', transaction_type: 'CRYPTO_PAYOUT' }),
      expect.objectContaining({ status: 'COMPLETED', previous_status: 'LOCKED', role: 'SENDER', transaction_type: 'CRYPTO_PAYOUT' }),
    ]);
    // 100 − 10 − 0.5 fee; the amount went out, the fee was earned.
    expect(ledger.journal.balanceOf(org.accountId, 'USDC')).toBe('89.5');
    expect(ledger.journal.platformBalance('payouts_in_flight', 'USDC')).toBe('0');
    expect(ledger.journal.platformBalance('external_payouts', 'USDC')).toBe('10');
    expect(ledger.journal.platformBalance('fees_earned', 'USDC')).toBe('0.5');
  });

  it('the sandbox bank declines a fiat amount ending in .13 once LOCKED, returning the hold and the fee', async () => {
    await withUsd();
    const declined = await fiatPayout('25.13');
    const settled = await fiatPayout('25.14');
    expect(ledger.journal.balanceOf(org.accountId, 'USD')).toBe('7.73');
    ledger.clock.advance(DELAY);
    expect(await ledger.settlePayouts.execute()).toEqual({ moved: 2, failed: [] });
    ledger.clock.advance(DELAY);
    expect(await ledger.settlePayouts.execute()).toEqual({ moved: 2, failed: [] });

    const transaction = await ledger.getTransaction.execute({ organizationId: org.organizationId, transactionId: declined.transactionId });
    expect(transaction).toMatchObject({ status: 'DECLINED', failureReason: expect.stringContaining('.13') });
    expect(await statusOf(settled.transactionId)).toBe('COMPLETED');
    // 60 − (25.14 + 1.00); the declined 25.13 + 1.00 came back whole.
    expect(ledger.journal.balanceOf(org.accountId, 'USD')).toBe('33.86');
    expect(ledger.journal.platformBalance('payouts_in_flight', 'USD')).toBe('0');
    expect(ledger.journal.platformBalance('fees_earned', 'USD')).toBe('1');
    expect(events(declined.transactionId).map((event) => `${String(event.previous_status)}→${String(event.status)}`)).toEqual(['EXPECTED→LOCKED', 'LOCKED→DECLINED']);
  });

  it('leaves a payout the sandbox drive endpoint moved meanwhile to its new status, and never touches payins or final payouts', async () => {
    const payout = await cryptoPayout('10');
    ledger.clock.advance(DELAY);
    await ledger.advanceTransaction.execute({ organizationId: org.organizationId, transactionId: payout.transactionId, action: 'decline' });
    ledger.clock.advance(DELAY);
    expect(await ledger.settlePayouts.execute()).toEqual({ moved: 0, failed: [] });
    expect(await statusOf(payout.transactionId)).toBe('DECLINED');
    expect(ledger.journal.balanceOf(org.accountId, 'USDC')).toBe('100');
  });

  it('asks an organization’s standing once per pass, however many of its payouts are due', async () => {
    const payouts = await Promise.all(['1', '2', '3', '4', '5', '6'].map((amount) => cryptoPayout(amount)));
    const asked = jest.spyOn(ledger.directory, 'standing');
    ledger.clock.advance(DELAY);
    expect(await ledger.settlePayouts.execute()).toEqual({ moved: 6, failed: [] });
    expect(asked).toHaveBeenCalledTimes(1);
    for (const payout of payouts) expect(await statusOf(payout.transactionId)).toBe('LOCKED');
  });

  it('a slow answer about one organization does not hold back other organizations’ payouts in the same pass', async () => {
    const other = await ledger.organization({ assets: ['USDC'] });
    await ledger.creditFaucet.execute({ ...other, asset: 'USDC', amount: '100', chainName: 'ETHEREUM_SEPOLIA' });
    const held = await cryptoPayout('10');
    const free = await ledger.createPayout.execute({ ...other, rail: 'CRYPTO', asset: 'USDC', amount: '10', beneficiaryId: ledger.beneficiaries.crypto(other), reference: null });
    // The first organization's standing is answered only when the test says so.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const standing = ledger.directory.standing.bind(ledger.directory);
    jest.spyOn(ledger.directory, 'standing').mockImplementation(async (organizationId) => {
      if (organizationId === org.organizationId) await answered;
      return standing(organizationId);
    });
    ledger.clock.advance(DELAY);
    const pass = ledger.settlePayouts.execute();
    await new Promise((resolve) => setImmediate(resolve));
    expect((await ledger.transactions.findById(free.transactionId))?.status).toBe('LOCKED');
    expect(await statusOf(held.transactionId)).toBe('EXPECTED');
    answer();
    expect(await pass).toEqual({ moved: 2, failed: [] });
    expect(await statusOf(held.transactionId)).toBe('LOCKED');
  });

  it('is the sandbox rails’ own settling: outside the sandbox it refuses to run', async () => {
    await expect(ledgerInMemory({ environment: 'production' }).settlePayouts.execute()).rejects.toMatchObject({ code: 'not_found' });
  });
});
