import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { Big, DomainError, eventQueueName, newId, UnitOfWork, type AccountView, type EventEnvelope, type PageView } from '@pfs/contracts';
import { RemoteDomainError } from '@pfs/messaging';
import { PrismaClient } from '@pfs/persistence';
import { readPlatformConfig } from '@pfs/platform';
import { eventually, isolateQueues, startServiceUnderTest, type ServiceUnderTest } from '@pfs/testing';
import { AccountRepository } from '../src/application/ports/account.repository';
import { Journal } from '../src/application/ports/journal';
import { TransactionRepository } from '../src/application/ports/transaction.repository';
import { Account } from '../src/domain/account';
import { Transaction } from '../src/domain/transaction';

const prefix = isolateQueues('ledger');

const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('ledger service against PostgreSQL and Redis', () => {
  let service: ServiceUnderTest;
  let prisma: PrismaClient;
  let accounts: AccountRepository;
  let redis: Redis;
  let ledgerEvents: Queue;

  beforeAll(async () => {
    const { LedgerModule } = await import('../src/ledger.module');
    service = await startServiceUnderTest(LedgerModule);
    prisma = service.app.get(PrismaClient);
    accounts = service.app.get(AccountRepository);
    redis = new Redis(readPlatformConfig().redisUrl, { maxRetriesPerRequest: null });
    ledgerEvents = new Queue(eventQueueName('ledger'), { connection: redis, prefix });
  });

  afterAll(async () => {
    await ledgerEvents?.obliterate({ force: true });
    await ledgerEvents?.close();
    redis?.disconnect();
    await service?.close();
  });

  function requestId(): string {
    return `req_${randomBytes(16).toString('hex')}`;
  }

  function organizationCreated(organizationId = newId('organization'), primaryAccountId = newId('account')): EventEnvelope<'organization.created'> {
    return {
      id: newId('event'),
      type: 'organization.created',
      source: 'organization',
      occurredAt: new Date().toISOString(),
      requestId: requestId(),
      aggregateId: organizationId,
      sequence: 1,
      data: {
        organizationId,
        primaryAccountId,
        name: 'Acme Payments',
        parentOrganizationId: null,
        referrerOrganizationId: null,
        createdAt: new Date().toISOString(),
      },
    };
  }

  /** Adds the event to the ledger's event queue exactly as the outbox relay does, and waits for it. */
  async function deliver(event: EventEnvelope, jobId = event.id): Promise<void> {
    await ledgerEvents.add(event.type, event, { jobId, attempts: 12, backoff: { type: 'exponential', delay: 500 } });
    await eventually(async () => {
      const state = await (await ledgerEvents.getJob(jobId))?.getState();
      if (state === 'failed') throw new Error(`job ${jobId} failed`);
      return state === 'completed' ? true : undefined;
    }, 10000);
  }

  function getAccount(organizationId: string, accountId: string): Promise<AccountView> {
    return service.bus.send('ledger', 'accounts.get', { organizationId, accountId }, { requestId: requestId() });
  }

  function listAccounts(organizationId: string, limit: number, cursor: string | null): Promise<PageView<AccountView>> {
    return service.bus.send('ledger', 'accounts.list', { organizationId, page: { limit, cursor } }, { requestId: requestId() });
  }

  async function openPrimary(): Promise<{ organizationId: string; accountId: string }> {
    const event = organizationCreated();
    await deliver(event);
    return { organizationId: event.data.organizationId, accountId: event.data.primaryAccountId };
  }

  it('reports alive and ready with PostgreSQL, Redis and its queue', async () => {
    expect((await fetch(`${service.adminUrl}/healthz`)).status).toBe(200);
    const ready = await fetch(`${service.adminUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { postgres: 'ok', redis: 'ok', queues: 'ok' } });
  });

  describe('organization.created', () => {
    it('opens exactly one primary account under the given id, even when delivered twice', async () => {
      const event = organizationCreated();
      const { organizationId, primaryAccountId } = event.data;

      await deliver(event);
      const opened = await prisma.ledgerAccount.findMany({ where: { organizationId } });
      expect(opened).toEqual([
        expect.objectContaining({ id: primaryAccountId, organizationId, isPrimary: true, status: 'ACTIVE', name: 'Primary account' }),
      ]);

      // The relay published it again after a crash and BullMQ no longer holds the first job.
      await deliver(event, `${event.id}-again`);

      expect(await prisma.ledgerAccount.findMany({ where: { organizationId } })).toEqual(opened);
      expect(await prisma.ledgerProcessedEvent.count({ where: { eventId: event.id } })).toBe(1);
    });

    it('opens one account when the same event is delivered concurrently', async () => {
      const event = organizationCreated();

      await Promise.all([deliver(event, `${event.id}-a`), deliver(event, `${event.id}-b`), deliver(event, `${event.id}-c`)]);

      expect(await prisma.ledgerAccount.count({ where: { organizationId: event.data.organizationId } })).toBe(1);
      expect(await prisma.ledgerProcessedEvent.count({ where: { eventId: event.id } })).toBe(1);
    });

    it('keeps the existing account when another event names the same account id', async () => {
      const first = organizationCreated();
      await deliver(first);
      const before = await prisma.ledgerAccount.findUniqueOrThrow({ where: { id: first.data.primaryAccountId } });

      await deliver(organizationCreated(first.data.organizationId, first.data.primaryAccountId));

      expect(await prisma.ledgerAccount.findMany({ where: { organizationId: first.data.organizationId } })).toEqual([before]);
    });
  });

  describe('accounts.open-primary', () => {
    const openPrimaryCommand = (organizationId: string, accountId: string, commandId = `primary-account:${organizationId}`) =>
      service.bus.send('ledger', 'accounts.open-primary', { organizationId, accountId }, { requestId: requestId(), commandId });

    it('opens the primary account before it answers; a repeat is answered from the command log, and organization.created afterwards finds it open', async () => {
      const event = organizationCreated();
      const { organizationId, primaryAccountId } = event.data;

      expect(await openPrimaryCommand(organizationId, primaryAccountId)).toEqual({ opened: true });
      expect(await getAccount(organizationId, primaryAccountId)).toMatchObject({ accountId: primaryAccountId, isPrimary: true, status: 'ACTIVE' });
      const opened = await prisma.ledgerAccount.findMany({ where: { organizationId } });
      expect(opened).toHaveLength(1);

      // The organization service's command re-sent (same command id): the stored answer, nothing new.
      expect(await openPrimaryCommand(organizationId, primaryAccountId)).toEqual({ opened: true });
      // The repair path arrives later: nothing to do.
      await deliver(event);
      // Under another command id (a retry the log does not know): found open.
      expect(await openPrimaryCommand(organizationId, primaryAccountId, newId('command'))).toEqual({ opened: false });
      expect(await prisma.ledgerAccount.findMany({ where: { organizationId } })).toEqual(opened);
    });

    it('the event first, then the command, both at once: one account either way', async () => {
      const event = organizationCreated();
      const { organizationId, primaryAccountId } = event.data;
      const [opened] = await Promise.all([openPrimaryCommand(organizationId, primaryAccountId), deliver(event)]);
      expect(opened).toEqual({ opened: expect.any(Boolean) });
      expect(await prisma.ledgerAccount.count({ where: { organizationId } })).toBe(1);
      expect(await openPrimaryCommand(organizationId, primaryAccountId, newId('command'))).toEqual({ opened: false });
    });
  });

  describe('accounts.get', () => {
    it('returns the account view of a fresh primary account', async () => {
      const { organizationId, accountId } = await openPrimary();

      const view = await getAccount(organizationId, accountId);

      expect(view).toEqual({
        object: 'account',
        accountId,
        name: 'Primary account',
        description: null,
        isPrimary: true,
        status: 'ACTIVE',
        fundingMethods: [],
        balances: [],
        createdAt: expect.stringMatching(ISO_MILLIS),
        updatedAt: expect.stringMatching(ISO_MILLIS),
      });
      const row = await prisma.ledgerAccount.findUniqueOrThrow({ where: { id: accountId } });
      expect(view.createdAt).toBe(row.createdAt.toISOString());
    });

    it("answers account_not_found for another organization's account, as for an unknown one", async () => {
      const { accountId } = await openPrimary();
      const stranger = newId('organization');

      const foreign = await getAccount(stranger, accountId).catch((error: unknown) => error);
      const unknown = await getAccount(stranger, newId('account')).catch((error: unknown) => error);

      expect(foreign).toBeInstanceOf(RemoteDomainError);
      expect((foreign as DomainError).toPayload()).toEqual({ code: 'account_not_found', message: `No account ${accountId} was found.` });
      expect((unknown as DomainError).code).toBe('account_not_found');
    });

    it("presents balances as decimal strings at the asset's scale", async () => {
      const { organizationId, accountId } = await openPrimary();
      // Balances only ever change through the journal: one settled deposit per asset.
      for (const [asset, amount] of [['USDC', '12.5'], ['USD', '1000'], ['BTC', '0.00000001'], ['ETH', '1.000000000000000001']] as const) {
        await service.app.get(UnitOfWork).run(async () => {
          const now = new Date();
          const change = Transaction.settledCryptoDeposit({
            id: newId('transaction'),
            organizationId,
            accountId,
            asset,
            amount: new Big(amount),
            chainName: 'ETHEREUM_SEPOLIA',
            journalId: newId('journal'),
            now,
          });
          await service.app.get(TransactionRepository).insert(change.transaction);
          await service.app.get(Journal).post(change.entry!, now);
        });
      }

      const view = await getAccount(organizationId, accountId);

      expect(view.balances).toEqual([
        { object: 'balance', asset: 'BTC', amount: '0.00000001' },
        { object: 'balance', asset: 'ETH', amount: '1.000000000000000001' },
        { object: 'balance', asset: 'USD', amount: '1000.00' },
        { object: 'balance', asset: 'USDC', amount: '12.500000' },
      ]);
    });

    it('presents the funding methods of the account', async () => {
      const { organizationId, accountId } = await openPrimary();
      const crypto = newId('fundingMethod');
      const bank = newId('fundingMethod');
      await prisma.ledgerFundingMethod.createMany({
        data: [
          {
            id: crypto,
            accountId,
            asset: 'USDC',
            type: 'CRYPTO_ADDRESS',
            chainName: 'ETHEREUM_SEPOLIA',
            address: '0x52908400098527886E0F7030069857D2E4169EE7',
            createdAt: new Date('2026-11-21T04:00:00.000Z'),
          },
          {
            id: bank,
            accountId,
            asset: 'USD',
            type: 'BANK_ACCOUNT',
            bank: { bankName: 'Sandbox Bank', accountNumber: '000123456789', routingNumber: '021000021', iban: null, swiftCode: null, reference: 'PFS-REF-1' },
            createdAt: new Date('2026-11-21T04:00:01.000Z'),
          },
        ],
      });

      const view = await getAccount(organizationId, accountId);

      expect(view.fundingMethods).toEqual([
        {
          object: 'funding_method',
          fundingMethodId: crypto,
          accountId,
          asset: 'USDC',
          type: 'CRYPTO_ADDRESS',
          chainName: 'ETHEREUM_SEPOLIA',
          address: '0x52908400098527886E0F7030069857D2E4169EE7',
          bank: null,
          createdAt: '2026-11-21T04:00:00.000Z',
        },
        {
          object: 'funding_method',
          fundingMethodId: bank,
          accountId,
          asset: 'USD',
          type: 'BANK_ACCOUNT',
          chainName: null,
          address: null,
          bank: { bankName: 'Sandbox Bank', accountNumber: '000123456789', routingNumber: '021000021', iban: null, swiftCode: null, reference: 'PFS-REF-1' },
          createdAt: '2026-11-21T04:00:01.000Z',
        },
      ]);
      expect((await listAccounts(organizationId, 25, null)).data[0].fundingMethods).toEqual(view.fundingMethods);
    });
  });

  describe('accounts.list', () => {
    it("pages newest first with a working cursor, over the caller's accounts only", async () => {
      const { organizationId, accountId: primaryId } = await openPrimary();
      const primary = await prisma.ledgerAccount.findUniqueOrThrow({ where: { id: primaryId } });
      // Four more accounts after the primary one, two of them in the same millisecond.
      const base = primary.createdAt.getTime();
      const tie = new Date(base + 3000);
      const [tieLow, tieHigh] = [newId('account'), newId('account')].sort();
      const more = [
        new Account(newId('account'), organizationId, 'Treasury', 'Reserves', false, 'ACTIVE', [], [], new Date(base + 1000), new Date(base + 1000)),
        new Account(tieLow, organizationId, 'Payroll', null, false, 'ACTIVE', [], [], tie, tie),
        new Account(tieHigh, organizationId, 'Payouts', null, false, 'SUSPENDED', [], [], tie, tie),
        new Account(newId('account'), organizationId, 'Fees', null, false, 'ACTIVE', [], [], new Date(base + 5000), new Date(base + 5000)),
      ];
      for (const account of more) expect(await accounts.openIfAbsent(account)).toBe(true);
      await openPrimary(); // someone else's, never listed

      const pages: Array<PageView<AccountView>> = [];
      let cursor: string | null = null;
      do {
        const page: PageView<AccountView> = await listAccounts(organizationId, 2, cursor);
        pages.push(page);
        cursor = page.nextCursor;
      } while (cursor && pages.length < 10);

      expect(pages.flatMap((page) => page.data.map((account) => account.accountId))).toEqual([more[3].id, tieHigh, tieLow, more[0].id, primaryId]);
      expect(pages.map((page) => [page.data.length, page.hasMore, page.nextCursor === null])).toEqual([
        [2, true, false],
        [2, true, false],
        [1, false, true],
      ]);
      const [fees, payouts] = pages[0].data;
      expect(fees).toMatchObject({ object: 'account', name: 'Fees', isPrimary: false, status: 'ACTIVE', balances: [], fundingMethods: [] });
      expect(payouts).toMatchObject({ name: 'Payouts', status: 'SUSPENDED' });
      expect(pages[1].data[1]).toMatchObject({ name: 'Treasury', description: 'Reserves' });
    });

    it('rejects a cursor that is not one of its own with invalid_request', async () => {
      const { organizationId } = await openPrimary();
      await accounts.openIfAbsent(Account.openPrimary(newId('account'), organizationId, new Date(Date.now() + 1000)));
      const { nextCursor } = await listAccounts(organizationId, 1, null);
      expect(nextCursor).toEqual(expect.any(String));

      const tampered = `${nextCursor}x`;
      const error = await listAccounts(organizationId, 1, tampered).catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(RemoteDomainError);
      expect((error as DomainError).toPayload()).toEqual({ code: 'invalid_request', message: 'cursor: is not a valid cursor for this list' });
    });
  });

  // Assets and funding methods.
  describe('funding-methods.provision and funding-methods.get', () => {
    it('provisions over the queue, idempotently, and the account view and lookup show the same methods', async () => {
      const { organizationId, accountId } = await openPrimary();
      const provision = () =>
        service.bus.send('ledger', 'funding-methods.provision', { organizationId, accountId: null, asset: 'ETH' }, { requestId: requestId() });

      const first = await provision();
      const again = await provision();

      expect(first).toHaveLength(4);
      expect(first[0]).toEqual({
        object: 'funding_method',
        fundingMethodId: expect.stringMatching(/^fm_[0-9a-f]{32}$/),
        accountId,
        asset: 'ETH',
        type: 'CRYPTO_ADDRESS',
        chainName: 'ARBITRUM_SEPOLIA',
        address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
        bank: null,
        createdAt: expect.stringMatching(ISO_MILLIS),
      });
      expect(again).toEqual(first);
      expect((await getAccount(organizationId, accountId)).fundingMethods).toEqual(first);
      const fetched = await service.bus.send('ledger', 'funding-methods.get', { organizationId, fundingMethodId: first[2].fundingMethodId }, { requestId: requestId() });
      expect(fetched).toEqual(first[2]);
    });

    it('answers with the error codes across the queue', async () => {
      const { organizationId, accountId } = await openPrimary();
      const stranger = await openPrimary();
      const failure = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => (error as DomainError).toPayload());

      expect(await failure(service.bus.send('ledger', 'funding-methods.provision', { organizationId: stranger.organizationId, accountId, asset: 'USDC' }, { requestId: requestId() }))).toEqual({
        code: 'account_not_found',
        message: `No account ${accountId} was found.`,
      });
      expect(await failure(service.bus.send('ledger', 'funding-methods.provision', { organizationId, accountId: null, asset: 'XRP' }, { requestId: requestId() }))).toEqual({
        code: 'not_found',
        message: 'No asset XRP was found.',
      });
      const unknown = newId('fundingMethod');
      expect(await failure(service.bus.send('ledger', 'funding-methods.get', { organizationId, fundingMethodId: unknown }, { requestId: requestId() }))).toEqual({
        code: 'funding_method_not_found',
        message: `No funding method ${unknown} was found.`,
      });
    });
  });
});
