import { Account } from '../../../domain/account';
import { ledgerInMemory, type LedgerInMemory } from '../../../../test/support/in-memory/ledger-in-memory.kit';
import type { PostTradeCommand } from './post-trade.command';

describe('PostTradeUseCase (in memory)', () => {
  let ledger: LedgerInMemory;
  let client: { organizationId: string; accountId: string };

  /** A client funded with 100 USDC through the faucet, created by `setup`'s creator or referred by its referrer. */
  async function fundedClient(setup: { parentOrganizationId?: string; referrerOrganizationId?: string } = {}) {
    const org = await ledger.organization({ assets: ['USDC'], ...setup });
    await ledger.creditFaucet.execute({ ...org, asset: 'USDC', amount: '100', chainName: 'ETHEREUM_SEPOLIA' });
    return org;
  }

  beforeEach(async () => {
    ledger = ledgerInMemory({ payoutFees: 'CRYPTO:USDC=0.5' });
    client = await fundedClient();
  });

  // 40 USDC for 0.0132 ETH: a spread fee of 0.4 USDC, 0.1 of it owed as commission.
  const command = (overrides: Partial<PostTradeCommand> = {}): PostTradeCommand => ({
    ...client,
    quoteId: 'quote_1',
    fromAsset: 'USDC',
    fromAmount: '40',
    toAsset: 'ETH',
    toAmount: '0.0132',
    fee: '0.4',
    commission: '0.1',
    ...overrides,
  });
  const trade = (overrides: Partial<PostTradeCommand> = {}) => ledger.postTrade.execute(command(overrides));

  /** Everything a refused trade must leave as it was. */
  function written() {
    return {
      transactions: ledger.transactions.transactions.size,
      entries: ledger.journal.entries.length,
      events: ledger.outbox.events.length,
      usdc: ledger.journal.balanceOf(client.accountId, 'USDC'),
    };
  }

  it('posts one journal entry that debits what the client sells, credits what it buys, and balances every asset', async () => {
    const entries = ledger.journal.entries.length;
    const { trade: posted, commission } = await trade();
    expect(posted).toEqual({
      object: 'transaction',
      transactionId: expect.stringMatching(/^txn_/),
      type: 'TRADE',
      status: 'COMPLETED',
      accountId: client.accountId,
      amount: '40.000000',
      asset: 'USDC',
      chainName: null,
      beneficiaryId: null,
      quoteId: 'quote_1',
      fee: '0.400000',
      feeAsset: 'USDC',
      counterpartyOrganizationId: null,
      reference: null,
      failureReason: null,
      destination: null,
      createdAt: ledger.clock.now().toISOString(),
      updatedAt: ledger.clock.now().toISOString(),
    });
    // No creator, no referrer: no commission, the platform keeps the whole fee.
    expect(commission).toBeNull();
    expect(ledger.journal.entries).toHaveLength(entries + 1);
    const entry = ledger.journal.entries[ledger.journal.entries.length - 1]!;
    expect(entry).toMatchObject({ kind: 'TRADE:COMPLETED', transactionId: posted.transactionId });
    expect(ledger.journal.balanceOf(client.accountId, 'USDC')).toBe('60');
    expect(ledger.journal.balanceOf(client.accountId, 'ETH')).toBe('0.0132');
    expect(ledger.journal.platformBalance('liquidity', 'USDC')).toBe('39.6');
    expect(ledger.journal.platformBalance('fees_earned', 'USDC')).toBe('0.4');
    expect(ledger.journal.platformBalance('liquidity', 'ETH')).toBe('-0.0132');
    expect(ledger.journal.booksByAsset()).toEqual({ USDC: '0', ETH: '0' });
    expect(ledger.outbox.dataOf('transaction.status.updated').slice(-1)).toEqual([
      {
        object: 'transaction',
        transaction_id: posted.transactionId,
        transaction_type: 'TRADE',
        status: 'COMPLETED',
        previous_status: 'EXPECTED',
        account_id: client.accountId,
        organization_id: client.organizationId,
        role: 'SENDER',
        occurred_at: ledger.clock.now().toISOString(),
      },
    ]);
  });

  it('credits the commission to the creator’s primary account, in the same entry, with its own RECEIVER event', async () => {
    const broker = await ledger.organization();
    client = await fundedClient({ parentOrganizationId: broker.organizationId });
    ledger.directory.set({ organizationId: client.organizationId, parentHoldsActiveLoa: true });
    const events = ledger.outbox.events.length;
    const { trade: posted, commission } = await trade();
    expect(commission).toMatchObject({
      type: 'COMMISSION',
      status: 'COMPLETED',
      accountId: broker.accountId,
      amount: '0.100000',
      asset: 'USDC',
      quoteId: 'quote_1',
      fee: null,
      feeAsset: null,
      counterpartyOrganizationId: client.organizationId,
    });
    const entry = ledger.journal.entries[ledger.journal.entries.length - 1]!;
    expect(entry.transactionId).toBe(posted.transactionId);
    expect(entry.lines.map((line) => `${line.account.kind === 'customer' ? line.account.accountId : line.account.purpose} ${line.asset} ${line.amount.toFixed()}`).sort()).toEqual(
      [
        `${client.accountId} USDC -40`,
        'liquidity USDC 39.6',
        'fees_earned USDC 0.3',
        `${broker.accountId} USDC 0.1`,
        'liquidity ETH -0.0132',
        `${client.accountId} ETH 0.0132`,
      ].sort(),
    );
    expect(ledger.journal.balanceOf(broker.accountId, 'USDC')).toBe('0.1');
    expect(ledger.journal.platformBalance('fees_earned', 'USDC')).toBe('0.3');
    expect(ledger.journal.booksByAsset()).toEqual({ USDC: '0', ETH: '0' });
    const appended = ledger.outbox.events.slice(events);
    expect(appended.map((event) => ({ data: event.data, audience: (event as unknown as { audience: unknown }).audience }))).toEqual([
      {
        data: expect.objectContaining({ transaction_id: posted.transactionId, transaction_type: 'TRADE', role: 'SENDER', organization_id: client.organizationId }),
        audience: { organizationId: client.organizationId, parentOrganizationId: broker.organizationId, parentHoldsActiveLoa: true },
      },
      {
        data: expect.objectContaining({
          transaction_id: commission!.transactionId,
          transaction_type: 'COMMISSION',
          status: 'COMPLETED',
          previous_status: 'EXPECTED',
          role: 'RECEIVER',
          account_id: broker.accountId,
          organization_id: broker.organizationId,
        }),
        audience: { organizationId: broker.organizationId, parentOrganizationId: null, parentHoldsActiveLoa: false },
      },
    ]);
  });

  it('shows the broker its own COMMISSION on its statement, never the client’s TRADE', async () => {
    const broker = await ledger.organization();
    client = await fundedClient({ parentOrganizationId: broker.organizationId });
    const { trade: posted, commission } = await trade();
    const brokerLines = (await ledger.listAccountEntries.execute({ organizationId: broker.organizationId, accountId: broker.accountId, page: { limit: 100, cursor: null } })).data;
    expect(brokerLines.map((line) => [line.transactionId, line.amount])).toEqual([[commission!.transactionId, '0.100000']]);
    await expect(ledger.getTransaction.execute({ organizationId: broker.organizationId, transactionId: brokerLines[0]!.transactionId })).resolves.toMatchObject({ type: 'COMMISSION' });
    const clientLines = (await ledger.listAccountEntries.execute({ organizationId: client.organizationId, accountId: client.accountId, page: { limit: 100, cursor: null } })).data;
    expect(clientLines.slice(0, 2).map((line) => line.transactionId)).toEqual([posted.transactionId, posted.transactionId]);
  });

  it('credits the referrer when the client has no creator, and the creator when it has both', async () => {
    const referrer = await ledger.organization();
    client = await fundedClient({ referrerOrganizationId: referrer.organizationId });
    expect((await trade()).commission).toMatchObject({ type: 'COMMISSION', accountId: referrer.accountId, amount: '0.100000' });
    expect(ledger.journal.balanceOf(referrer.accountId, 'USDC')).toBe('0.1');

    const broker = await ledger.organization();
    client = await fundedClient({ parentOrganizationId: broker.organizationId, referrerOrganizationId: referrer.organizationId });
    expect((await trade({ quoteId: 'quote_2' })).commission).toMatchObject({ accountId: broker.accountId });
    expect(ledger.journal.balanceOf(referrer.accountId, 'USDC')).toBe('0.1');
    expect(ledger.journal.balanceOf(broker.accountId, 'USDC')).toBe('0.1');
  });

  it('pays no commission when it is 0, and the whole fee stays with the platform; a zero fee posts no fee line', async () => {
    const broker = await ledger.organization();
    client = await fundedClient({ parentOrganizationId: broker.organizationId });
    const events = ledger.outbox.events.length;
    expect((await trade({ commission: '0' })).commission).toBeNull();
    expect(ledger.outbox.events).toHaveLength(events + 1);
    expect(ledger.journal.platformBalance('fees_earned', 'USDC')).toBe('0.4');
    expect(ledger.journal.balanceOf(broker.accountId, 'USDC')).toBe('0');
    await trade({ quoteId: 'quote_2', fee: '0', commission: '0', fromAmount: '10', toAmount: '0.0033' });
    expect(ledger.journal.entries[ledger.journal.entries.length - 1]!.lines.some((line) => line.account.kind === 'platform' && line.account.purpose === 'fees_earned')).toBe(false);
    expect(ledger.journal.booksByAsset()).toEqual({ USDC: '0', ETH: '0' });
  });

  it('refuses a short balance with insufficient_funds, writing nothing; the same quote posts once the balance allows', async () => {
    const before = written();
    await expect(trade({ fromAmount: '100.000001' })).rejects.toMatchObject({ code: 'insufficient_funds' });
    expect(written()).toEqual(before);
    expect(await ledger.transactions.findByQuote('quote_1')).toEqual([]);
    await expect(trade({ fromAmount: '100' })).resolves.toMatchObject({ trade: { status: 'COMPLETED' } });
    expect(ledger.journal.balanceOf(client.accountId, 'USDC')).toBe('0');
  });

  it('counts only what holds leave available: a pending payout’s amount and fee cannot be traded', async () => {
    await ledger.createPayout.execute({ ...client, rail: 'CRYPTO', asset: 'USDC', amount: '60', beneficiaryId: ledger.beneficiaries.crypto(client), reference: null });
    const before = written();
    await expect(trade({ fromAmount: '40', fee: '0.4' })).rejects.toMatchObject({ code: 'insufficient_funds' });
    expect(written()).toEqual(before);
    await expect(trade({ fromAmount: '39.5' })).resolves.toMatchObject({ trade: { amount: '39.500000' } });
  });

  it.each(['SUSPENDED', 'CLOSED'] as const)('refuses a %s account with forbidden naming the account and its status, writing nothing', async (status) => {
    const index = ledger.accounts.accounts.findIndex((account) => account.id === client.accountId);
    const active = ledger.accounts.accounts[index]!;
    ledger.accounts.accounts[index] = new Account(active.id, active.organizationId, active.name, active.description, active.isPrimary, status, [], [], active.createdAt, active.updatedAt);
    const before = written();
    await expect(trade()).rejects.toMatchObject({ code: 'forbidden', message: `Account ${client.accountId} is ${status}: only an ACTIVE account can trade.` });
    expect(written()).toEqual(before);
  });

  it('answers account_not_found for another organization’s account and an unknown one', async () => {
    const other = await fundedClient();
    await expect(trade({ accountId: other.accountId })).rejects.toMatchObject({ code: 'account_not_found' });
    await expect(trade({ accountId: 'acct_ffffffffffffffffffffffffffffffff' })).rejects.toMatchObject({ code: 'account_not_found' });
  });

  it('posts a quote at most once: a repeat answers the same transactions and writes nothing, even after the account was suspended', async () => {
    const broker = await ledger.organization();
    client = await fundedClient({ parentOrganizationId: broker.organizationId });
    const first = await trade();
    const before = written();
    ledger.clock.advance(60_000);
    expect(await trade()).toEqual(first);
    const index = ledger.accounts.accounts.findIndex((account) => account.id === client.accountId);
    const active = ledger.accounts.accounts[index]!;
    ledger.accounts.accounts[index] = new Account(active.id, active.organizationId, active.name, active.description, true, 'SUSPENDED', [], [], active.createdAt, active.updatedAt);
    expect(await trade()).toEqual(first);
    expect(written()).toEqual(before);
    expect((await ledger.transactions.findByQuote('quote_1')).map((transaction) => transaction.type).sort()).toEqual(['COMMISSION', 'TRADE']);
    // A quote id is the quote service's own: the same id for another account is a bug, refused.
    const other = await fundedClient();
    await expect(trade({ ...other })).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('quoteId') });
  });

  it('leaves a trade and its commission final: the sandbox cannot refund them', async () => {
    const broker = await ledger.organization();
    client = await fundedClient({ parentOrganizationId: broker.organizationId });
    const { trade: posted, commission } = await trade();
    await expect(ledger.advanceTransaction.execute({ ...client, transactionId: posted.transactionId, action: 'refund' })).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('COMPLETED is final'),
    });
    await expect(
      ledger.advanceTransaction.execute({ organizationId: broker.organizationId, transactionId: commission!.transactionId, action: 'refund' }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('refuses the creator’s commission while the creator has no primary account yet, writing nothing (retryable)', async () => {
    const broker = 'org_00000000000000000000000000000fff';
    ledger.directory.set({ organizationId: broker });
    client = await fundedClient({ parentOrganizationId: broker });
    const before = written();
    await expect(trade()).rejects.toMatchObject({ code: 'account_not_found', message: expect.stringContaining(broker) });
    expect(written()).toEqual(before);
  });

  it.each([
    ['the same asset on both sides', { toAsset: 'USDC', toAmount: '40' }, 'toAsset'],
    ['an asset outside the catalog', { fromAsset: 'DOGE' }, 'fromAsset'],
    ['an unknown toAsset', { toAsset: 'XRP' }, 'toAsset'],
    ['fromAmount beyond USDC’s 6 decimals', { fromAmount: '40.0000001' }, 'fromAmount'],
    ['toAmount beyond EUR’s 2 decimals', { toAsset: 'EUR', toAmount: '36.001' }, 'toAmount'],
    ['toAmount beyond BTC’s 8 decimals', { toAsset: 'BTC', toAmount: '0.000400001' }, 'toAmount'],
    ['a zero fromAmount', { fromAmount: '0', fee: '0', commission: '0' }, 'fromAmount'],
    ['a zero toAmount', { toAmount: '0' }, 'toAmount'],
    ['a fee beyond the scale', { fee: '0.4000001' }, 'fee'],
    ['a commission beyond the scale', { commission: '0.1000001' }, 'commission'],
    ['a fee above fromAmount', { fromAmount: '0.3', fee: '0.4' }, 'fee'],
    ['a commission above the fee', { commission: '0.41' }, 'commission'],
    ['a fee that is not a decimal', { fee: '-1' }, 'fee'],
  ])('refuses %s with invalid_request naming the field, writing nothing', async (_case, overrides, field) => {
    const before = written();
    await expect(trade(overrides)).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringMatching(new RegExp(`^${field}: `)) });
    expect(written()).toEqual(before);
  });

  it('takes amounts at the edge of each scale (2, 6, 8 and 18 decimals) exactly', async () => {
    await trade({ toAsset: 'EUR', toAmount: '36.01' });
    await trade({ quoteId: 'quote_2', toAsset: 'BTC', toAmount: '0.00040001', fromAmount: '1.000001', fee: '0.000001', commission: '0' });
    await trade({ quoteId: 'quote_3', toAmount: '0.000000000000000001', fromAmount: '0.000001', fee: '0', commission: '0' });
    expect(ledger.journal.balanceOf(client.accountId, 'EUR')).toBe('36.01');
    expect(ledger.journal.balanceOf(client.accountId, 'BTC')).toBe('0.00040001');
    expect(ledger.journal.balanceOf(client.accountId, 'ETH')).toBe('0.000000000000000001');
    expect(ledger.journal.balanceOf(client.accountId, 'USDC')).toBe('58.999998');
    expect(ledger.journal.booksByAsset()).toEqual({ USDC: '0', EUR: '0', BTC: '0', ETH: '0' });
  });
});
