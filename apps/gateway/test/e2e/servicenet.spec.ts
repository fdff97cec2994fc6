import { randomBytes, randomUUID } from 'node:crypto';
import type { BeneficiaryView, ServicenetView, TransactionView } from '@pfs/contracts';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { eventually, isolateQueues, testDatabaseUrl } from '@pfs/testing';
import { send, type RequestOptions } from '../support/http-client';
import { expectError, startE2eStack, statementCheck, type CreatedOrganization, type E2eStack } from './support/e2e-stack';
import { WebhookReceiver } from './support/webhook-receiver';

const queuePrefix = isolateQueues('gw-e2e-servicenet');
// Each test makes organizations and waits on the shared stack, which other files load at the same time.
jest.setTimeout(120000);

interface Balance {
  asset: string;
  amount: string;
}
interface Page<T> {
  data: T[];
  hasMore: boolean;
}

/*
 * Servicenet and internal transfers end to end, against the shared stack: every code of the
 * routes, isolation between the two organizations (neither ever sees the other's account ids),
 * the events of spec 6.2 per side, and concurrent transfers each way between two organizations
 * through the gateway. That 200 in flight at once (100 each way) all post without a deadlock is
 * the ledger's money spec (apps/ledger-service/test/ledger-money.spec.ts): a burst that size here
 * would hold the shared ledger's queue past the command timeout of every other file's requests.
 * After this file the invariant check (ledger-invariants.setup.ts) reads the books.
 */
describe('servicenet and internal transfers (end to end)', () => {
  let e2e: E2eStack;
  let prisma: PrismaClient;
  const receivers: WebhookReceiver[] = [];
  let alice: CreatedOrganization;
  let bob: CreatedOrganization;
  let aliceHandle: string;
  let bobHandle: string;
  /** Alice's beneficiary for Bob (on her primary account). */
  let toBob: BeneficiaryView;

  const call = (path: string, options: RequestOptions = {}) => send(e2e.baseUrl, path, options);
  const write = (method: string, path: string, key: string, body?: unknown, idempotencyKey: string = randomUUID()) =>
    call(path, { method, key, body, headers: { 'Idempotency-Key': idempotencyKey } });
  const post = (path: string, key: string, body?: unknown) => write('POST', path, key, body);
  const handleFor = (label: string) => `${label}-${randomBytes(5).toString('hex')}`;
  const usdc = async (org: CreatedOrganization): Promise<string | undefined> =>
    (await call(`/v1/accounts/${org.accountId}`, { key: org.apiKey })).json<{ balances: Balance[] }>().balances.find((b) => b.asset === 'USDC')?.amount;
  const transfer = (from: CreatedOrganization, beneficiaryId: string, amount: string, extra: Record<string, unknown> = {}, idempotencyKey?: string) =>
    write('POST', '/v1/transfers', from.apiKey, { accountId: from.accountId, beneficiaryId, asset: 'USDC', amount, ...extra }, idempotencyKey);
  const statusEvents = (transactionId: string) =>
    prisma.ledgerOutboxEvent.findMany({ where: { type: 'transaction.status.updated', payload: { path: ['data', 'transaction_id'], equals: transactionId } } });

  /** An approved root organization with USDC on its primary account, funded through the faucet. */
  async function funded(label: string, amount: string): Promise<CreatedOrganization> {
    const org = await e2e.createOrganization(label);
    await eventually(async () => (await prisma.ledgerAccount.findUnique({ where: { id: org.accountId }, select: { id: true } }))?.id);
    expect((await post('/v1/funding-methods', org.apiKey, { asset: 'USDC' })).status).toBe(200);
    expect((await post('/v1/transactions/faucet', org.apiKey, { accountId: org.accountId, asset: 'USDC', amount, chainName: 'ETHEREUM_SEPOLIA' })).status).toBe(200);
    return org;
  }

  /** Enables servicenet and claims a handle. */
  async function join(org: CreatedOrganization, handle: string): Promise<void> {
    expect((await post('/v1/servicenet/enable', org.apiKey)).status).toBe(200);
    const claimed = await write('PUT', '/v1/servicenet/handle', org.apiKey, { handle });
    expect(claimed.status).toBe(200);
  }

  async function beneficiary(from: CreatedOrganization, handle: string, extra: Record<string, unknown> = {}): Promise<BeneficiaryView> {
    const created = await post('/v1/beneficiaries/servicenet', from.apiKey, { accountId: from.accountId, nickname: `To ${handle}`, handle, ...extra });
    expect(created.status).toBe(201);
    return created.json<BeneficiaryView>();
  }

  beforeAll(async () => {
    e2e = await startE2eStack(queuePrefix, {
      RATE_LIMIT_PER_MINUTE: '100000',
      // Webhook receivers on this machine (loopback), for the delivered events of each side.
      WEBHOOK_ALLOW_INSECURE_URLS: 'true',
      WEBHOOK_ENDPOINT_CACHE_MS: '0',
    });
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 2, applicationName: 'gateway-e2e-servicenet' });
    [alice, bob] = await Promise.all([funded('e2e servicenet alice', '100'), funded('e2e servicenet bob', '100')]);
    aliceHandle = handleFor('alice');
    bobHandle = handleFor('bob');
  }, 180000);

  afterAll(async () => {
    await Promise.all(receivers.map((target) => target.stop()));
    await prisma?.$disconnect();
    await e2e?.stop();
  }, 60000);

  describe('until enabled', () => {
    it('GET answers the state; the handle, servicenet beneficiaries and transfers are 403 servicenet_not_enabled', async () => {
      const state = await call('/v1/servicenet', { key: alice.apiKey });
      expect(state.status).toBe(200);
      expect(state.json<ServicenetView>()).toEqual({ object: 'servicenet', enabled: false, handle: null, updatedAt: null });
      expectError(await write('PUT', '/v1/servicenet/handle', alice.apiKey, { handle: aliceHandle }), 403, 'servicenet_not_enabled');
      expectError(await post('/v1/beneficiaries/servicenet', alice.apiKey, { accountId: alice.accountId, nickname: 'Bob', handle: 'whoever' }), 403, 'servicenet_not_enabled');
      expectError(await transfer(alice, 'bene_00000000000000000000000000000000', '1'), 403, 'servicenet_not_enabled');
    });
  });

  describe('handles and servicenet beneficiaries', () => {
    beforeAll(async () => {
      await join(alice, aliceHandle.toUpperCase());
      await join(bob, bobHandle);
    });

    it('a handle is stored lower-cased and unique without regard to case: 409 servicenet_handle_taken', async () => {
      expect((await call('/v1/servicenet', { key: alice.apiKey })).json<ServicenetView>()).toMatchObject({ enabled: true, handle: aliceHandle });
      expectError(await write('PUT', '/v1/servicenet/handle', bob.apiKey, { handle: aliceHandle.toUpperCase() }), 409, 'servicenet_handle_taken');
      expectError(await write('PUT', '/v1/servicenet/handle', bob.apiKey, { handle: 'no' }), 400, 'invalid_request');
      expect((await call('/v1/servicenet', { key: bob.apiKey })).json<ServicenetView>()).toMatchObject({ handle: bobHandle });
    });

    it('creates a SERVICENET beneficiary by handle (any case), showing the handle and name and none of the other organization’s ids', async () => {
      toBob = await beneficiary(alice, bobHandle.toUpperCase(), { tags: ['supplier'], metadata: { erpId: 'V-7' } });
      expect(toBob).toMatchObject({ type: 'SERVICENET', status: 'ACTIVE', tags: ['supplier'], metadata: { erpId: 'V-7' }, accountId: alice.accountId, bank: null, crypto: null, servicenet: { handle: bobHandle, organizationName: expect.stringMatching(/^e2e servicenet bob /) } });
      const body = JSON.stringify(toBob);
      expect(body).not.toContain(bob.organizationId);
      expect(body).not.toContain(bob.accountId);
      expect((await call(`/v1/beneficiaries/${toBob.beneficiaryId}`, { key: alice.apiKey })).json()).toEqual(toBob);
      expect((await call('/v1/beneficiaries?type=SERVICENET', { key: alice.apiKey })).json<Page<BeneficiaryView>>().data.map((b) => b.beneficiaryId)).toContain(toBob.beneficiaryId);
    });

    it('an unknown handle is 404 servicenet_handle_not_found, one’s own 400 invalid_request naming handle', async () => {
      expectError(await post('/v1/beneficiaries/servicenet', alice.apiKey, { accountId: alice.accountId, nickname: 'Nobody', handle: handleFor('nobody') }), 404, 'servicenet_handle_not_found');
      const own = expectError(await post('/v1/beneficiaries/servicenet', alice.apiKey, { accountId: alice.accountId, nickname: 'Me', handle: aliceHandle }), 400, 'invalid_request');
      expect(own.message).toMatch(/^handle: /);
      expectError(await post('/v1/beneficiaries/servicenet', alice.apiKey, { accountId: bob.accountId, nickname: 'Bob', handle: bobHandle }), 404, 'account_not_found');
    });

    it('the handle of an organization that disabled servicenet is not found, and stays reserved for it', async () => {
      const carol = await e2e.createOrganization('e2e servicenet carol');
      const carolHandle = handleFor('carol');
      await join(carol, carolHandle);
      expect((await post('/v1/servicenet/disable', carol.apiKey)).json<ServicenetView>()).toMatchObject({ enabled: false, handle: carolHandle });
      expectError(await post('/v1/beneficiaries/servicenet', alice.apiKey, { accountId: alice.accountId, nickname: 'Carol', handle: carolHandle }), 404, 'servicenet_handle_not_found');
      expectError(await write('PUT', '/v1/servicenet/handle', bob.apiKey, { handle: carolHandle }), 409, 'servicenet_handle_taken');
    });
  });

  describe('transfers', () => {
    it('moves funds to the receiver’s primary account: one INTERNAL_TRANSFER per side, COMPLETED, an event each (spec 6.2)', async () => {
      const sent = await transfer(alice, toBob.beneficiaryId, '10.25', { reference: 'Invoice 7' });
      expect(sent.status).toBe(201);
      const mine = sent.json<TransactionView>();
      expect(mine).toMatchObject({
        type: 'INTERNAL_TRANSFER',
        status: 'COMPLETED',
        accountId: alice.accountId,
        amount: '10.250000',
        asset: 'USDC',
        beneficiaryId: toBob.beneficiaryId,
        counterpartyOrganizationId: bob.organizationId,
        reference: 'Invoice 7',
        fee: null,
      });
      expect(await usdc(alice)).toBe('89.750000');
      expect(await usdc(bob)).toBe('110.250000');

      const bobs = (await call('/v1/transactions?type=INTERNAL_TRANSFER', { key: bob.apiKey })).json<Page<TransactionView>>().data;
      expect(bobs).toHaveLength(1);
      const theirs = bobs[0] as TransactionView;
      expect(theirs).toMatchObject({ type: 'INTERNAL_TRANSFER', status: 'COMPLETED', accountId: bob.accountId, amount: '10.250000', beneficiaryId: null, counterpartyOrganizationId: alice.organizationId, reference: 'Invoice 7' });
      expect(theirs.transactionId).not.toBe(mine.transactionId);

      // Isolation: neither side's transactions, nor its reads of the other's, show the other's account ids.
      const alicesView = JSON.stringify([(await call('/v1/transactions', { key: alice.apiKey })).json(), (await call(`/v1/transactions/${mine.transactionId}`, { key: alice.apiKey })).json()]);
      const bobsView = JSON.stringify([(await call('/v1/transactions', { key: bob.apiKey })).json(), (await call(`/v1/transactions/${theirs.transactionId}`, { key: bob.apiKey })).json()]);
      expect(alicesView).not.toContain(bob.accountId);
      expect(bobsView).not.toContain(alice.accountId);
      expectError(await call(`/v1/transactions/${theirs.transactionId}`, { key: alice.apiKey }), 404, 'transaction_not_found');
      expectError(await call(`/v1/transactions/${mine.transactionId}`, { key: bob.apiKey }), 404, 'transaction_not_found');

      const [senderEvent, ...moreSent] = await statusEvents(mine.transactionId);
      const [receiverEvent, ...moreReceived] = await statusEvents(theirs.transactionId);
      expect([moreSent, moreReceived]).toEqual([[], []]);
      const data = (transactionId: string, org: CreatedOrganization, role: string) => ({
        object: 'transaction',
        transaction_id: transactionId,
        transaction_type: 'INTERNAL_TRANSFER',
        status: 'COMPLETED',
        previous_status: 'EXPECTED',
        account_id: org.accountId,
        organization_id: org.organizationId,
        role,
        occurred_at: mine.createdAt,
      });
      expect(senderEvent?.payload).toMatchObject({ data: data(mine.transactionId, alice, 'SENDER'), audience: { organizationId: alice.organizationId, parentOrganizationId: null } });
      expect(receiverEvent?.payload).toMatchObject({ data: data(theirs.transactionId, bob, 'RECEIVER'), audience: { organizationId: bob.organizationId, parentOrganizationId: null } });
      expect(Object.keys((senderEvent?.payload as { data: object }).data).sort()).toEqual(Object.keys(data('', alice, '')).sort());
      expect(JSON.stringify(senderEvent?.payload)).not.toContain(bob.accountId);
      expect(JSON.stringify(receiverEvent?.payload)).not.toContain(alice.accountId);
    });

    it('each side’s statement points at its own transactions: every transactionId on the receiver’s entries opens for the receiver', async () => {
      const sent = (await transfer(alice, toBob.beneficiaryId, '1.5')).json<TransactionView>();
      const bobs = await statementCheck(e2e.baseUrl, bob);
      // The faucet credit and the transfers received so far, each on a transaction Bob can open.
      expect(bobs.lines).toBeGreaterThanOrEqual(3);
      expect(bobs.foreign).toEqual([]);
      expect(bobs.transactionIds).not.toContain(sent.transactionId);
      const received = (await call('/v1/transactions?type=INTERNAL_TRANSFER', { key: bob.apiKey })).json<Page<TransactionView>>().data;
      expect(bobs.transactionIds).toEqual(expect.arrayContaining(received.map((t) => t.transactionId)));
      const alices = await statementCheck(e2e.baseUrl, alice);
      expect(alices.foreign).toEqual([]);
      expect(alices.transactionIds).toContain(sent.transactionId);
      expect(await usdc(alice)).toBe('88.250000');
      expect(await usdc(bob)).toBe('111.750000');
    });

    it('delivers each side’s event to its own organization’s webhook endpoint only: SENDER to the sender, RECEIVER to the receiver', async () => {
      const [frank, grace] = await Promise.all([funded('e2e servicenet frank', '50'), funded('e2e servicenet grace', '0.000001')]);
      const graceHandle = handleFor('grace');
      await Promise.all([join(frank, handleFor('frank')), join(grace, graceHandle)]);
      const toGrace = await beneficiary(frank, graceHandle);
      const [frankHooks, graceHooks] = await Promise.all([new WebhookReceiver().start(), new WebhookReceiver().start()]);
      receivers.push(frankHooks, graceHooks);
      for (const [org, target] of [[frank, frankHooks], [grace, graceHooks]] as const) {
        const created = await post('/v1/webhooks/endpoints', org.apiKey, { url: target.url(), eventTypes: ['transaction.status.updated'] });
        expect(created.status).toBe(201);
        const id = created.json<{ id: string }>().id;
        target.secrets.push((await call(`/v1/webhooks/endpoints/${id}/secret`, { key: org.apiKey })).json<{ key: string }>().key);
      }
      const sent = (await transfer(frank, toGrace.beneficiaryId, '5')).json<TransactionView>();
      const delivered = (target: WebhookReceiver) =>
        eventually(async () => {
          const bodies = target.payloads<{ type: string; data: Record<string, unknown> }>().filter((body) => body.data.transaction_type === 'INTERNAL_TRANSFER');
          return bodies.length ? bodies : undefined;
        }, 20000, 50);
      const [frankGot, graceGot] = await Promise.all([delivered(frankHooks), delivered(graceHooks)]);
      expect(frankGot.map((body) => body.data)).toEqual([
        expect.objectContaining({ transaction_id: sent.transactionId, role: 'SENDER', account_id: frank.accountId, organization_id: frank.organizationId, status: 'COMPLETED', previous_status: 'EXPECTED' }),
      ]);
      expect(graceGot.map((body) => body.data)).toEqual([
        expect.objectContaining({ role: 'RECEIVER', account_id: grace.accountId, organization_id: grace.organizationId, status: 'COMPLETED', previous_status: 'EXPECTED' }),
      ]);
      expect(graceGot[0]?.data.transaction_id).not.toBe(sent.transactionId);
      expect(JSON.stringify(frankGot)).not.toContain(grace.accountId);
      expect(JSON.stringify(graceGot)).not.toContain(frank.accountId);
    });

    it('a retry with the same Idempotency-Key answers the same transaction and moves the money once', async () => {
      const key = randomUUID();
      const first = await transfer(alice, toBob.beneficiaryId, '0.75', {}, key);
      const again = await transfer(alice, toBob.beneficiaryId, '0.75', {}, key);
      expect([first.status, again.status]).toEqual([201, 201]);
      expect(again.json<TransactionView>().transactionId).toBe(first.json<TransactionView>().transactionId);
      expect(await usdc(alice)).toBe('87.500000');
      expect(await usdc(bob)).toBe('112.500000');
    });

    it('a beneficiary is paid only from the account it is registered on, as for payouts: another account of the organization is 400 invalid_request', async () => {
      const opened = await post('/v1/accounts', alice.apiKey, { name: 'Alice operations' });
      expect(opened.status).toBe(201);
      const ops = { ...alice, accountId: opened.json<{ accountId: string }>().accountId };
      const opsToBob = await beneficiary(ops, bobHandle);
      expect(opsToBob.accountId).toBe(ops.accountId);
      expect(expectError(await transfer(alice, opsToBob.beneficiaryId, '1'), 400, 'invalid_request').message).toMatch(/^beneficiaryId: .*another of your accounts/);
      expect(expectError(await transfer(ops, toBob.beneficiaryId, '1'), 400, 'invalid_request').message).toMatch(/^beneficiaryId: /);
      // From its own account the rule passes, and the empty account is short of funds.
      expectError(await transfer(ops, opsToBob.beneficiaryId, '1'), 422, 'insufficient_funds');
      expect(await usdc(alice)).toBe('87.500000');
      expect(await usdc(bob)).toBe('112.500000');
    });

    it('refusals move nothing: insufficient_funds, beneficiary_blocked, beneficiary_not_found, servicenet_not_enabled (receiver disabled since), invalid_request', async () => {
      expectError(await transfer(alice, toBob.beneficiaryId, '87.500001'), 422, 'insufficient_funds');

      expect((await post(`/v1/sandbox/beneficiaries/${toBob.beneficiaryId}/block`, alice.apiKey)).status).toBe(200);
      expectError(await transfer(alice, toBob.beneficiaryId, '1'), 409, 'beneficiary_blocked');
      expect((await post(`/v1/sandbox/beneficiaries/${toBob.beneficiaryId}/unblock`, alice.apiKey)).status).toBe(200);

      // Bob's own transfer with Alice's beneficiary: another organization's, as if it did not exist.
      expectError(await transfer(bob, toBob.beneficiaryId, '1'), 404, 'beneficiary_not_found');

      expect((await post('/v1/servicenet/disable', bob.apiKey)).status).toBe(200);
      const refused = expectError(await transfer(alice, toBob.beneficiaryId, '1'), 403, 'servicenet_not_enabled');
      expect(refused.message).not.toContain(bob.organizationId);
      expect((await post('/v1/servicenet/enable', bob.apiKey)).json<ServicenetView>()).toMatchObject({ enabled: true, handle: bobHandle });

      expectError(await transfer(alice, toBob.beneficiaryId, '1', { asset: 'DOGE' }), 400, 'invalid_request');
      expectError(await transfer(alice, toBob.beneficiaryId, '1', { amount: 1 }), 400, 'invalid_request');

      expect(await usdc(alice)).toBe('87.500000');
      expect(await usdc(bob)).toBe('112.500000');
    });
  });

  describe('concurrency', () => {
    it('10 concurrent transfers each way between two organizations (20 in flight): all 201, exact balances, each side’s statement its own', async () => {
      const [dave, erin] = await Promise.all([funded('e2e servicenet dave', '1000'), funded('e2e servicenet erin', '1000')]);
      const [daveHandle, erinHandle] = [handleFor('dave'), handleFor('erin')];
      await Promise.all([join(dave, daveHandle), join(erin, erinHandle)]);
      const [toErin, toDave] = await Promise.all([beneficiary(dave, erinHandle), beneficiary(erin, daveHandle)]);

      const answers = await Promise.all(
        Array.from({ length: 10 }, () => [transfer(dave, toErin.beneficiaryId, '1.25'), transfer(erin, toDave.beneficiaryId, '0.75')]).flat(),
      );
      expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));

      // Dave: 1000 − 10 × 1.25 + 10 × 0.75 = 995; Erin: 1000 + 10 × 1.25 − 10 × 0.75 = 1005.
      expect(await usdc(dave)).toBe('995.000000');
      expect(await usdc(erin)).toBe('1005.000000');
      for (const org of [dave, erin]) {
        expect(await prisma.ledgerTransaction.count({ where: { organizationId: org.organizationId, type: 'INTERNAL_TRANSFER', role: 'SENDER', status: 'COMPLETED' } })).toBe(10);
        expect(await prisma.ledgerTransaction.count({ where: { organizationId: org.organizationId, type: 'INTERNAL_TRANSFER', role: 'RECEIVER', status: 'COMPLETED' } })).toBe(10);
        // 21 lines (the faucet, 10 sent, 10 received), 21 transactions of its own, each opening for it.
        const statement = await statementCheck(e2e.baseUrl, org);
        expect([statement.lines, new Set(statement.transactionIds).size, statement.foreign]).toEqual([21, 21, []]);
      }
    });
  });
});
