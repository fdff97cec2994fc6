import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { Big, newId, type FeesView, type QuoteView, type TransactionView } from '@pfs/contracts';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { eventually, isolateQueues, testDatabaseUrl } from '@pfs/testing';
import { send, type Answer, type RequestOptions } from '../support/http-client';
import { expectError, startE2eStack, type CreatedOrganization, type E2eStack } from './support/e2e-stack';

const queuePrefix = isolateQueues('gw-e2e-payouts');
// Each test makes organizations and waits on the shared stack, which other files load at the same time.
jest.setTimeout(120000);

/** The sandbox rails move a payout one step each 200 ms in the shared stack (SANDBOX_SETTLE_DELAY). */
const SETTLE_DELAY_MS = 200;
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
const DEAD_ADDRESS = '0x000000000000000000000000000000000000dEaD';
const TRANSACTION_ID = /^txn_[0-9a-f]{32}$/;

/** A fresh EVM address (lower case: no checksum to get right). */
const evmAddress = (): string => `0x${randomBytes(20).toString('hex')}`;

/*
 * Payouts end to end, against the shared stack: every refusal code holding nothing, 40
 * concurrent payouts against a balance that affords some of them, the sandbox rails settling by
 * themselves (and the .13 decline), refunds returning exactly what they should, the events of
 * spec 6.2 for each move, and a payout keeping the destination it was created with. The amounts
 * expected are literals computed by hand from the fee GET /v1/fees shows (1.00 of the payout
 * asset by default). Every query is scoped to this file's own organizations. That
 * SANDBOX_AUTO_SETTLE=false keeps the settlement sweeper from running is the ledger's
 * payout-settlement sweeper spec (apps/ledger-service); the drive endpoint's lock and complete
 * moves its advance-transaction use-case spec. After this file the ledger invariant check reads
 * the books.
 */
describe('payouts (end to end)', () => {
  let e2e: E2eStack;
  let prisma: PrismaClient;
  let fees: FeesView;
  /** Another organization, whose account and beneficiaries the refusals below must not reach. */
  let other: CreatedOrganization;

  const call = (path: string, options: RequestOptions = {}) => send(e2e.baseUrl, path, options);
  const post = (path: string, key: string, body?: unknown) => call(path, { method: 'POST', key, body, headers: { 'Idempotency-Key': randomUUID() } });
  const ok = <T>(answer: Answer, status: number): T => {
    expect({ status: answer.status, text: answer.text }).toEqual({ status, text: expect.any(String) });
    return answer.json<T>();
  };

  const organization = async (label: string): Promise<CreatedOrganization> => {
    const org = await e2e.createOrganization(label);
    await eventually(async () => ((await call(`/v1/accounts/${org.accountId}`, { key: org.apiKey })).status === 200 ? true : undefined), 15000, 100);
    return org;
  };
  /** Activates USDC on the account and credits it through the faucet (ETHEREUM_SEPOLIA). */
  const fundUsdc = async (org: CreatedOrganization, amount: string): Promise<void> => {
    ok(await post('/v1/funding-methods', org.apiKey, { asset: 'USDC' }), 200);
    ok(await post('/v1/transactions/faucet', org.apiKey, { accountId: org.accountId, asset: 'USDC', amount, chainName: 'ETHEREUM_SEPOLIA' }), 200);
  };
  /** Fiat reaches a sandbox account by trading: sells `usdc` USDC for USD at the sandbox rate. */
  const buyUsd = async (org: CreatedOrganization, usdc: string): Promise<void> => {
    const quote = ok<QuoteView>(await post('/v1/quotes', org.apiKey, { accountId: org.accountId, fromAsset: 'USDC', toAsset: 'USD', fromAmount: usdc }), 201);
    ok(await post(`/v1/quotes/${quote.quoteId}/execute`, org.apiKey), 200);
  };
  const balance = async (org: CreatedOrganization, asset: string): Promise<Big> => {
    const account = ok<{ balances: Array<{ asset: string; amount: string }> }>(await call(`/v1/accounts/${org.accountId}`, { key: org.apiKey }), 200);
    return new Big(account.balances.find((entry) => entry.asset === asset)?.amount ?? '0');
  };
  const cryptoBeneficiary = async (org: CreatedOrganization, address = evmAddress(), accountId = org.accountId): Promise<string> =>
    ok<{ beneficiaryId: string }>(
      await post('/v1/beneficiaries/crypto', org.apiKey, { accountId, nickname: 'Treasury wallet', chainName: 'ETHEREUM_SEPOLIA', address }),
      201,
    ).beneficiaryId;
  const accountNumber = (): string => Array.from({ length: 12 }, () => randomInt(10)).join('');
  const bankBeneficiary = async (org: CreatedOrganization, number = accountNumber()): Promise<string> =>
    ok<{ beneficiaryId: string }>(
      await post('/v1/beneficiaries/bank', org.apiKey, {
        accountId: org.accountId,
        nickname: 'Supplier (USD)',
        legalName: 'Acme Supplies Inc',
        bankName: 'JPMorgan Chase',
        method: 'WIRE',
        currency: 'USD',
        swiftCode: 'CHASUS33',
        accountNumber: number,
        bankCountry: 'US',
      }),
      201,
    ).beneficiaryId;
  const patchBeneficiary = (org: CreatedOrganization, beneficiaryId: string, changes: Record<string, unknown>) =>
    call(`/v1/beneficiaries/${beneficiaryId}`, { method: 'PATCH', key: org.apiKey, body: changes, headers: { 'Idempotency-Key': randomUUID() } });
  const cryptoPayout = (org: CreatedOrganization, beneficiaryId: string, amount: string, asset = 'USDC') =>
    post('/v1/payouts/crypto', org.apiKey, { accountId: org.accountId, beneficiaryId, asset, amount });
  const fiatPayout = (org: CreatedOrganization, beneficiaryId: string, amount: string, extra: Record<string, unknown> = {}) =>
    post('/v1/payouts/fiat', org.apiKey, { accountId: org.accountId, beneficiaryId, asset: 'USD', amount, ...extra });
  const read = async (org: CreatedOrganization, transactionId: string) => ok<TransactionView>(await call(`/v1/transactions/${transactionId}`, { key: org.apiKey }), 200);
  const reaches = (org: CreatedOrganization, transactionId: string, status: string) =>
    eventually(async () => {
      const transaction = await read(org, transactionId);
      return transaction.status === status ? transaction : undefined;
    }, 20000, 50);
  const drive = (org: CreatedOrganization, transactionId: string, action: string) => post(`/v1/sandbox/transactions/${transactionId}/${action}`, org.apiKey);
  /** The ledger outbox's `transaction.status.updated` data of a transaction, in sequence order. */
  const statusEvents = async (transactionId: string) =>
    (
      await prisma.ledgerOutboxEvent.findMany({
        where: { type: 'transaction.status.updated', payload: { path: ['data', 'transaction_id'], equals: transactionId } },
      })
    )
      .map((event) => event.payload as { sequence: number; data: Record<string, unknown> })
      .sort((a, b) => a.sequence - b.sequence)
      .map((event) => event.data);
  /** Payouts of the organization, as stored: a refusal must leave none behind. */
  const payoutRows = (org: CreatedOrganization) => prisma.ledgerTransaction.count({ where: { accountId: org.accountId, type: { in: ['FIAT_PAYOUT', 'CRYPTO_PAYOUT'] } } });
  const feeOf = (rail: 'FIAT' | 'CRYPTO', asset: string): string => {
    const fee = fees.payoutFees.find((entry) => entry.rail === rail && entry.asset === asset);
    if (!fee) throw new Error(`no ${rail} fee for ${asset}`);
    return fee.amount;
  };
  /** The data spec 6.2 gives `transaction.status.updated`, exactly. */
  const eventData = (org: CreatedOrganization, transaction: TransactionView, previous: string, status: string) => ({
    object: 'transaction',
    transaction_id: transaction.transactionId,
    transaction_type: transaction.type,
    status,
    previous_status: previous,
    account_id: org.accountId,
    organization_id: org.organizationId,
    role: 'SENDER',
    occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
  });

  beforeAll(async () => {
    e2e = await startE2eStack(queuePrefix, { RATES_DRIFT_BPS: '0', SANDBOX_SETTLE_DELAY: `${SETTLE_DELAY_MS}ms`, RATE_LIMIT_PER_MINUTE: '100000' });
    // USD is bought at 1 USDC each (the shared stack's rate, without drift).
    expect((e2e.env.RATES ?? '').split(',')).toContain('USDC/USD=1');
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 2, applicationName: 'gateway-e2e-payouts' });
    other = await organization('e2e payouts other');
    fees = ok<FeesView>(await call('/v1/fees', { key: other.apiKey }), 200);
  }, 180000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await e2e?.stop();
  }, 60000);

  it('GET /v1/fees shows the payout fees these figures are computed from', () => {
    expect(feeOf('CRYPTO', 'USDC')).toBe('1.000000');
    expect(feeOf('FIAT', 'USD')).toBe('1.00');
  });

  describe('refusals, each holding nothing', () => {
    let org: CreatedOrganization;
    let wallet: string;

    beforeAll(async () => {
      org = await organization('e2e payouts refusals');
      await fundUsdc(org, '50');
      wallet = await cryptoBeneficiary(org);
    }, 60000);

    afterEach(async () => {
      expect((await balance(org, 'USDC')).toFixed()).toBe('50');
      expect(await payoutRows(org)).toBe(0);
    });

    it('404 beneficiary_not_found: an unknown beneficiary, and another organization’s', async () => {
      expectError(await cryptoPayout(org, newId('beneficiary'), '1'), 404, 'beneficiary_not_found');
      expectError(await cryptoPayout(org, await cryptoBeneficiary(other), '1'), 404, 'beneficiary_not_found');
      expectError(await fiatPayout(org, await bankBeneficiary(other), '1.00'), 404, 'beneficiary_not_found');
    });

    it('409 beneficiary_blocked; 400 invalid_request for INACTIVE and ARCHIVED', async () => {
      const blocked = await cryptoBeneficiary(org);
      ok(await post(`/v1/sandbox/beneficiaries/${blocked}/block`, org.apiKey), 200);
      expectError(await cryptoPayout(org, blocked, '1'), 409, 'beneficiary_blocked');

      const archived = await cryptoBeneficiary(org);
      ok(await post(`/v1/beneficiaries/${archived}/archive`, org.apiKey), 200);
      expect(expectError(await cryptoPayout(org, archived, '1'), 400, 'invalid_request').message).toContain('is ARCHIVED');

      // Nothing in the API moves a beneficiary to INACTIVE (the status is reserved): set in its service's table.
      const inactive = await cryptoBeneficiary(org);
      await prisma.beneficiary.update({ where: { id: inactive }, data: { status: 'INACTIVE' } });
      expect(expectError(await cryptoPayout(org, inactive, '1'), 400, 'invalid_request').message).toContain('is INACTIVE');
    });

    it('400 invalid_request: the wrong beneficiary type for the rail, an asset the beneficiary does not take', async () => {
      const bank = await bankBeneficiary(org);
      expect(expectError(await cryptoPayout(org, bank, '1'), 400, 'invalid_request').message).toMatch(/^beneficiaryId: .*BANK beneficiary/);
      expect(expectError(await fiatPayout(org, wallet, '1.00'), 400, 'invalid_request').message).toMatch(/^beneficiaryId: .*CRYPTO beneficiary/);
      expect(expectError(await fiatPayout(org, bank, '1.00', { asset: 'EUR' }), 400, 'invalid_request').message).toMatch(/^asset: .*paid in USD, not EUR/);
    });

    it('400 invalid_request naming the field for a malformed request', async () => {
      expect(expectError(await cryptoPayout(org, wallet, '1.0000001'), 400, 'invalid_request').message).toMatch(/^amount: /);
      expect(expectError(await cryptoPayout(org, wallet, '1', 'USD'), 400, 'invalid_request').message).toMatch(/^asset: /);
      expect(expectError(await post('/v1/payouts/crypto', org.apiKey, { accountId: org.accountId, asset: 'USDC', amount: '1' }), 400, 'invalid_request').message).toMatch(
        /^beneficiaryId: /,
      );
    });

    it('400 invalid_request for an amount of 20 digits, whose amount + fee the books could not hold', async () => {
      const answer = await post('/v1/payouts/crypto', org.apiKey, { accountId: org.accountId, beneficiaryId: wallet, asset: 'USDC', amount: '99999999999999999999.5' });
      expect(expectError(answer, 400, 'invalid_request').message).toBe('amount: must have at most 15 digits before the decimal point (less than 1000000000000000)');
    });

    it('422 insufficient_funds when amount + fee is more than the balance (49.01 + 1.00 > 50)', async () => {
      expectError(await cryptoPayout(org, wallet, '49.01'), 422, 'insufficient_funds');
    });

    it('404 account_not_found for another organization’s account', async () => {
      expectError(await post('/v1/payouts/crypto', org.apiKey, { accountId: other.accountId, beneficiaryId: wallet, asset: 'USDC', amount: '1' }), 404, 'account_not_found');
    });

    it('400 invalid_request for a beneficiary registered on another account of the organization, either way round', async () => {
      const ops = ok<{ accountId: string }>(await post('/v1/accounts', org.apiKey, { name: 'Operations' }), 201);
      const opsWallet = await cryptoBeneficiary(org, evmAddress(), ops.accountId);
      const refused = expectError(await cryptoPayout(org, opsWallet, '1'), 400, 'invalid_request');
      expect(refused.message).toMatch(/^beneficiaryId: .*another of your accounts/);
      const fromOps = await post('/v1/payouts/crypto', org.apiKey, { accountId: ops.accountId, beneficiaryId: wallet, asset: 'USDC', amount: '1' });
      expect(expectError(fromOps, 400, 'invalid_request').message).toMatch(/^beneficiaryId: /);
    });

    it('502 chain_send_failed for the chain’s zero and burn addresses, nothing held afterwards', async () => {
      for (const address of [ZERO_ADDRESS, DEAD_ADDRESS]) {
        const burn = await cryptoBeneficiary(org, address);
        expect(expectError(await cryptoPayout(org, burn, '10'), 502, 'chain_send_failed').message).toContain('ETHEREUM_SEPOLIA');
      }
    });
  });

  it('40 concurrent payouts of 10 against a balance of 100: exactly floor(100 / 11) = 9 succeed, the rest are insufficient_funds, 1 left, never negative', async () => {
    const org = await organization('e2e payouts concurrent');
    await fundUsdc(org, '100');
    const wallet = await cryptoBeneficiary(org);
    const answers = await Promise.all(Array.from({ length: 40 }, () => cryptoPayout(org, wallet, '10')));
    const created = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status !== 201);
    // floor(100 / (10 + fee)) with the fee of GET /v1/fees: 9 when it is 1.
    const affordable = new Big(100).div(new Big(10).plus(feeOf('CRYPTO', 'USDC'))).round(0, Big.roundDown).toNumber();
    expect(affordable).toBe(9);
    expect(created).toHaveLength(affordable);
    for (const answer of refused) expectError(answer, 422, 'insufficient_funds');
    for (const answer of created) expect(answer.json<TransactionView>()).toMatchObject({ status: 'EXPECTED', amount: '10.000000', fee: '1.000000', feeAsset: 'USDC' });
    expect((await balance(org, 'USDC')).toFixed()).toBe('1');
    expect(await payoutRows(org)).toBe(9);
    // Every line's balance_after, in journal order, is the running sum and never below zero.
    const lines = await prisma.ledgerPosting.findMany({ where: { accountId: org.accountId }, orderBy: { id: 'asc' } });
    let running = new Big(0);
    for (const line of lines) {
      running = running.plus(line.amount.toFixed());
      expect(new Big(line.balanceAfter!.toFixed()).eq(running)).toBe(true);
      expect(running.gte(0)).toBe(true);
    }
    // They settle by themselves: sent, with the balance unchanged.
    for (const answer of created) await reaches(org, answer.json<TransactionView>().transactionId, 'COMPLETED');
    expect((await balance(org, 'USDC')).toFixed()).toBe('1');
  });

  it('25 payouts and 25 beneficiary creates of one organization at once: every one answered 201, none 503, each effect exactly once', async () => {
    // Each payout asks the beneficiary service and each create asks the ledger: both services
    // are asked while the other has its own commands in flight. That no question is ever asked
    // while a transaction holds a pooled connection is the command bus's own refusal (libs/messaging
    // command-bus spec); a burst of hundreds here would hold the shared stack's queues past the
    // command timeout of every other file's requests.
    const org = await organization('e2e payouts and creates at once');
    await fundUsdc(org, '275');
    const wallet = await cryptoBeneficiary(org);
    const payoutKeys = Array.from({ length: 25 }, () => randomUUID());
    const creates = Array.from({ length: 25 }, () => ({ key: randomUUID(), address: evmAddress() }));
    const payout1 = (key: string) =>
      call('/v1/payouts/crypto', { method: 'POST', key: org.apiKey, headers: { 'Idempotency-Key': key }, body: { accountId: org.accountId, beneficiaryId: wallet, asset: 'USDC', amount: '10' } });
    const create1 = ({ key, address }: { key: string; address: string }) =>
      call('/v1/beneficiaries/crypto', {
        method: 'POST',
        key: org.apiKey,
        headers: { 'Idempotency-Key': key },
        body: { accountId: org.accountId, nickname: 'Wallet', chainName: 'ETHEREUM_SEPOLIA', address },
      });
    const answers = await Promise.all([...payoutKeys.map(payout1), ...creates.map(create1)]);
    expect(answers.map((answer) => answer.status).filter((status) => status !== 201)).toEqual([]);
    const payoutIds = new Set(answers.slice(0, 25).map((answer) => answer.json<TransactionView>().transactionId));
    const beneficiaryIds = new Set(answers.slice(25).map((answer) => answer.json<{ beneficiaryId: string }>().beneficiaryId));
    expect(payoutIds.size).toBe(25);
    expect(beneficiaryIds.size).toBe(25);
    expect(await payoutRows(org)).toBe(25);
    expect(await prisma.beneficiary.count({ where: { organizationId: org.organizationId } })).toBe(26);
    // 25 × (10 + the fee of 1): the whole balance is held, once per payout.
    expect((await balance(org, 'USDC')).toFixed()).toBe('0');
    // A retry of each with its key changes nothing and answers the same.
    const retried = await Promise.all([payout1(payoutKeys[0]), create1(creates[0])]);
    expect(retried.map((answer) => answer.status)).toEqual([201, 201]);
    expect(retried[0].json<TransactionView>().transactionId).toBe(answers[0].json<TransactionView>().transactionId);
    expect(retried[1].json<{ beneficiaryId: string }>().beneficiaryId).toBe(answers[25].json<{ beneficiaryId: string }>().beneficiaryId);
    expect(await payoutRows(org)).toBe(25);
    expect(await prisma.beneficiary.count({ where: { organizationId: org.organizationId } })).toBe(26);
  });

  it('a crypto payout settles by itself, EXPECTED → LOCKED → COMPLETED, with exactly the events of spec 6.2, and shows in GET /v1/transactions', async () => {
    const org = await organization('e2e payouts settle');
    await fundUsdc(org, '30');
    const wallet = await cryptoBeneficiary(org);
    const created = ok<TransactionView>(await cryptoPayout(org, wallet, '12.5'), 201);
    expect(created).toEqual({
      object: 'transaction',
      transactionId: expect.stringMatching(TRANSACTION_ID),
      type: 'CRYPTO_PAYOUT',
      status: 'EXPECTED',
      accountId: org.accountId,
      amount: '12.500000',
      asset: 'USDC',
      chainName: 'ETHEREUM_SEPOLIA',
      beneficiaryId: wallet,
      quoteId: null,
      fee: '1.000000',
      feeAsset: 'USDC',
      counterpartyOrganizationId: null,
      reference: null,
      failureReason: null,
      destination: {
        rail: 'CRYPTO',
        nickname: 'Treasury wallet',
        name: null,
        bank: null,
        crypto: { chainName: 'ETHEREUM_SEPOLIA', platform: 'EVM', address: ok<{ crypto: { address: string } }>(await call(`/v1/beneficiaries/${wallet}`, { key: org.apiKey }), 200).crypto.address },
      },
      createdAt: expect.any(String),
      updatedAt: created.createdAt,
    });
    // 30 − (12.5 + 1) held at once.
    expect((await balance(org, 'USDC')).toFixed()).toBe('16.5');
    const completed = await reaches(org, created.transactionId, 'COMPLETED');
    expect((await balance(org, 'USDC')).toFixed()).toBe('16.5');
    expect(await statusEvents(created.transactionId)).toEqual([eventData(org, created, 'EXPECTED', 'LOCKED'), eventData(org, created, 'LOCKED', 'COMPLETED')]);

    const list = ok<{ data: TransactionView[] }>(await call(`/v1/transactions?type=CRYPTO_PAYOUT&accountId=${org.accountId}`, { key: org.apiKey }), 200);
    expect(list.data).toEqual([completed]);
    expect(completed).toMatchObject({ beneficiaryId: wallet, fee: '1.000000', feeAsset: 'USDC', reference: null, failureReason: null });

    // Refunded (the sandbox drive endpoint): amount and fee come back, 16.5 + 13.5 = 30.
    expect(ok<TransactionView>(await drive(org, created.transactionId, 'refund'), 200).status).toBe('REFUNDED');
    expect((await balance(org, 'USDC')).toFixed()).toBe('30');
    expect((await statusEvents(created.transactionId)).map((data) => `${String(data.previous_status)}→${String(data.status)}`)).toEqual([
      'EXPECTED→LOCKED',
      'LOCKED→COMPLETED',
      'COMPLETED→REFUNDED',
    ]);
  });

  describe('fiat payouts (USD bought with USDC)', () => {
    let org: CreatedOrganization;
    let bank: string;
    let usd: Big;

    beforeAll(async () => {
      org = await organization('e2e payouts fiat');
      await fundUsdc(org, '200');
      await buyUsd(org, '150');
      bank = await bankBeneficiary(org);
    }, 60000);

    beforeEach(async () => {
      usd = await balance(org, 'USD');
    });

    it('an amount ending in .13 is declined by the sandbox bank after locking: amount and fee return exactly', async () => {
      const created = ok<TransactionView>(await fiatPayout(org, bank, '25.13', { reference: 'Invoice 113' }), 201);
      expect(created).toMatchObject({ type: 'FIAT_PAYOUT', status: 'EXPECTED', amount: '25.13', fee: '1.00', feeAsset: 'USD', reference: 'Invoice 113', chainName: null });
      // 25.13 + 1.00 held.
      expect((await balance(org, 'USD')).toFixed(2)).toBe(usd.minus('26.13').toFixed(2));
      const declined = await reaches(org, created.transactionId, 'DECLINED');
      expect(declined).toMatchObject({ failureReason: expect.stringContaining('.13'), reference: 'Invoice 113', beneficiaryId: bank });
      expect((await balance(org, 'USD')).toFixed(2)).toBe(usd.toFixed(2));
      expect(await statusEvents(created.transactionId)).toEqual([eventData(org, created, 'EXPECTED', 'LOCKED'), eventData(org, created, 'LOCKED', 'DECLINED')]);
    });

    it('any other amount completes; a refund returns amount and fee exactly', async () => {
      const created = ok<TransactionView>(await fiatPayout(org, bank, '40.00'), 201);
      expect(created).toMatchObject({ amount: '40.00', fee: '1.00', reference: null });
      await reaches(org, created.transactionId, 'COMPLETED');
      expect((await balance(org, 'USD')).toFixed(2)).toBe(usd.minus('41.00').toFixed(2));
      expect(ok<TransactionView>(await drive(org, created.transactionId, 'refund'), 200)).toMatchObject({ status: 'REFUNDED', failureReason: null });
      expect((await balance(org, 'USD')).toFixed(2)).toBe(usd.toFixed(2));
      expect(await statusEvents(created.transactionId)).toEqual([
        eventData(org, created, 'EXPECTED', 'LOCKED'),
        eventData(org, created, 'LOCKED', 'COMPLETED'),
        eventData(org, created, 'COMPLETED', 'REFUNDED'),
      ]);
    });

    it('the sandbox drive endpoint declines an EXPECTED payout at once: hold and fee return', async () => {
      // The rail may have locked it first (one step per 200 ms): a decline is allowed from both. On a
      // busy machine it may even have completed it before the decline arrives: then the decline is
      // refused as a completed payout's would be, a refund restores the balance, and another payout tries.
      let declined: TransactionView | undefined;
      for (let attempt = 0; attempt < 10 && declined === undefined; attempt++) {
        const created = ok<TransactionView>(await fiatPayout(org, bank, '10.00'), 201);
        const answer = await drive(org, created.transactionId, 'decline');
        if (answer.status === 200) {
          declined = ok<TransactionView>(answer, 200);
        } else {
          expect(expectError(answer, 400, 'invalid_request').message).toContain('is COMPLETED');
          expect(ok<TransactionView>(await drive(org, created.transactionId, 'refund'), 200).status).toBe('REFUNDED');
        }
        expect((await balance(org, 'USD')).toFixed(2)).toBe(usd.toFixed(2));
      }
      expect(declined?.status).toBe('DECLINED');
    });
  });

  it('a payout keeps the destination it was created with: a PATCH of the beneficiary changes neither the transaction nor where it settles', async () => {
    const org = await organization('e2e payouts destination');
    await fundUsdc(org, '100');
    await buyUsd(org, '50');
    const firstAddress = evmAddress();
    const wallet = await cryptoBeneficiary(org, firstAddress);
    const firstNumber = accountNumber();
    const bank = await bankBeneficiary(org, firstNumber);
    const shownAddress = ok<{ crypto: { address: string } }>(await call(`/v1/beneficiaries/${wallet}`, { key: org.apiKey }), 200).crypto.address;
    expect(shownAddress.toLowerCase()).toBe(firstAddress);

    const toWallet = { rail: 'CRYPTO', nickname: 'Treasury wallet', name: null, bank: null, crypto: { chainName: 'ETHEREUM_SEPOLIA', platform: 'EVM', address: shownAddress } };
    const toBank = {
      rail: 'FIAT',
      nickname: 'Supplier (USD)',
      name: 'Acme Supplies Inc',
      bank: { bankName: 'JPMorgan Chase', method: 'WIRE', currency: 'USD', swiftCode: 'CHASUS33', bankCountry: 'US', routingNumber: null, accountNumberLast4: firstNumber.slice(-4) },
      crypto: null,
    };
    const crypto = ok<TransactionView>(await cryptoPayout(org, wallet, '5'), 201);
    const fiat = ok<TransactionView>(await fiatPayout(org, bank, '10.00'), 201);
    expect(crypto.destination).toEqual(toWallet);
    expect(fiat.destination).toEqual(toBank);
    // Masked as a beneficiary is: never the full account number.
    expect(JSON.stringify(fiat)).not.toContain(firstNumber);

    // Both beneficiaries change: the wallet to the chain's burn address, the bank account to another number.
    ok(await patchBeneficiary(org, wallet, { address: DEAD_ADDRESS, nickname: 'Moved wallet' }), 200);
    const secondNumber = accountNumber();
    ok(await patchBeneficiary(org, bank, { accountNumber: secondNumber, legalName: 'Someone Else Ltd' }), 200);
    expect(await read(org, crypto.transactionId)).toMatchObject({ destination: toWallet });
    expect(await read(org, fiat.transactionId)).toMatchObject({ destination: toBank });
    const listed = ok<{ data: TransactionView[] }>(await call(`/v1/transactions?accountId=${org.accountId}&type=CRYPTO_PAYOUT`, { key: org.apiKey }), 200).data;
    expect(listed.map((transaction) => transaction.destination)).toEqual([toWallet]);
    // A new payout goes where the beneficiary now points: the sandbox chain refuses its burn address.
    expectError(await cryptoPayout(org, wallet, '1'), 502, 'chain_send_failed');
    expect(ok<TransactionView>(await fiatPayout(org, bank, '1.00'), 201).destination).toMatchObject({ name: 'Someone Else Ltd', bank: { accountNumberLast4: secondNumber.slice(-4) } });

    // The rails settle each to its stored destination: the crypto payout completes. The rails
    // settle by themselves here, maybe before the PATCH: that a settlement after the PATCH still
    // goes to the stored destination is the create-payout use-case and sandbox rails specs'.
    expect(await reaches(org, crypto.transactionId, 'COMPLETED')).toMatchObject({ failureReason: null, destination: toWallet });
    expect(await reaches(org, fiat.transactionId, 'COMPLETED')).toMatchObject({ destination: toBank });
    expect(await statusEvents(crypto.transactionId)).toEqual([eventData(org, crypto, 'EXPECTED', 'LOCKED'), eventData(org, crypto, 'LOCKED', 'COMPLETED')]);
  });
});
