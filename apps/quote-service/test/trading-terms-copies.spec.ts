import { type DynamicModule, Module } from '@nestjs/common';
import { newId, type EventEnvelope, type QuoteView, type SubOrgTier } from '@pfs/contracts';
import { commandConsumerProvider, EventConsumer, eventConsumerProvider, ServiceRuntimeModule } from '@pfs/messaging';
import { PrismaTransactionHost } from '@pfs/persistence';
import { isolateQueues, startServiceUnderTest, statementsDuring, type ServiceUnderTest } from '@pfs/testing';
import { QUOTE_COMMAND_HANDLERS } from '../src/adapters/messaging/quote.command-handlers';
import { QUOTE_EVENT_HANDLERS } from '../src/adapters/messaging/quote.event-handlers';
import { QueueTradingTermsOwners } from '../src/adapters/terms/queue-trading-terms-owners';
import { AccountHolders } from '../src/application/ports/account-holders';
import { OrganizationTiers } from '../src/application/ports/organization-tiers';
import type { AccountHolder } from '../src/application/ports/trading-terms-directory';
import { QUOTE_PROVIDERS, QUOTE_SERVICE } from '../src/quote.providers';

isolateQueues('quote-terms');
// The copies themselves, each read reaching PostgreSQL: the cache in front of them has its own spec.
process.env.TERMS_CACHE_MS = '0';

const SLOW = { requestId: 'req_00000000000000000000000000000023', timeoutMs: 60000 };
const VIP: SubOrgTier = { key: 'vip', label: 'VIP', spreadBps: 30, referrerShareBps: 30 };
const PREFERRED: SubOrgTier = { key: 'preferred', label: 'Preferred', spreadBps: 60, referrerShareBps: 20 };

/** The ledger and the organization service as the quote service asks them: answers set by the test, every question counted. */
class CountingOwners extends QueueTradingTermsOwners {
  readonly holders = new Map<string, AccountHolder>();
  readonly tiers = new Map<string, SubOrgTier | null>();
  askedAccount = 0;
  askedTier = 0;

  constructor() {
    super(undefined as never);
  }

  override async accountHolder(accountId: string): Promise<AccountHolder | null> {
    this.askedAccount += 1;
    return this.holders.get(accountId) ?? null;
  }

  override async effectiveTier(organizationId: string): Promise<SubOrgTier | null> {
    this.askedTier += 1;
    return this.tiers.get(organizationId) ?? null;
  }
}

/** The quote service as it runs, its own copies included; only the owners' answers are the test's. */
@Module({})
class QuoteWithOwnersModule {
  static with(owners: CountingOwners): DynamicModule {
    return {
      module: QuoteWithOwnersModule,
      imports: [ServiceRuntimeModule.forService(QUOTE_SERVICE)],
      providers: [
        ...QUOTE_PROVIDERS.filter((provider) => provider !== QueueTradingTermsOwners),
        { provide: QueueTradingTermsOwners, useValue: owners },
        ...commandConsumerProvider('quote', QUOTE_COMMAND_HANDLERS),
        ...eventConsumerProvider('quote', QUOTE_EVENT_HANDLERS),
      ],
    };
  }
}

describe('quote service: its own copies of accounts and tiers (PostgreSQL, Redis)', () => {
  const owners = new CountingOwners();
  let service: ServiceUnderTest;

  beforeAll(async () => {
    service = await startServiceUnderTest(QuoteWithOwnersModule.with(owners));
  });

  afterAll(async () => {
    await service?.close();
  });

  const assigned = (organizationId: string, tier: SubOrgTier | null, sequence: number): EventEnvelope<'organization.tier.assigned'> => ({
    id: newId('event'),
    type: 'organization.tier.assigned',
    source: 'organization',
    occurredAt: '2026-11-26T10:00:00.000Z',
    requestId: null,
    aggregateId: organizationId,
    sequence,
    data: { organizationId, tier, assignedAt: '2026-11-26T10:00:00.000Z' },
  });

  /** An organization whose primary account the ledger holds ACTIVE. */
  function organization() {
    const organizationId = newId('organization');
    const accountId = newId('account');
    owners.holders.set(accountId, { accountId, organizationId, status: 'ACTIVE' });
    return { organizationId, accountId };
  }

  const pricing = (organizationId: string) => service.bus.send('quote', 'pricing.get', { organizationId }, SLOW);
  const quote = (org: { organizationId: string; accountId: string }): Promise<QuoteView> =>
    service.bus.send('quote', 'quotes.create', { ...org, fromAsset: 'EUR', toAsset: 'USD', fromAmount: '100', toAmount: null }, { ...SLOW, commandId: newId('command') });
  const consumer = () => service.app.get(EventConsumer);

  describe('the tier in force', () => {
    it('asks the owner about an organization it has not heard of once, the default included, then prices from its copy', async () => {
      const org = organization();
      const before = owners.askedTier;
      for (let i = 0; i < 3; i += 1) expect(await pricing(org.organizationId)).toEqual({ tier: null, spreadBps: 100, referrerShareBps: 0 });
      expect((await quote(org)).spread).toEqual({ fee: '1.00', asset: 'EUR' });
      expect(owners.askedTier - before).toBe(1);
    });

    it('takes the newest assignment whatever order events arrive in; the fees and the next quote show it without asking', async () => {
      const org = organization();
      const before = owners.askedTier;
      const events = [assigned(org.organizationId, PREFERRED, 3), assigned(org.organizationId, null, 4), assigned(org.organizationId, VIP, 5)];
      for (const event of [events[2]!, events[0]!, events[1]!]) expect(await consumer().handle(event)).toBe('ok');
      expect(await consumer().handle(events[2]!)).toBe('duplicate');
      expect(await pricing(org.organizationId)).toEqual({ tier: { key: 'vip', label: 'VIP' }, spreadBps: 30, referrerShareBps: 30 });
      expect((await quote(org)).spread).toEqual({ fee: '0.30', asset: 'EUR' });
      expect(await consumer().handle(assigned(org.organizationId, null, 6))).toBe('ok');
      expect(await pricing(org.organizationId)).toEqual({ tier: null, spreadBps: 100, referrerShareBps: 0 });
      expect((await quote(org)).spread).toEqual({ fee: '1.00', asset: 'EUR' });
      expect(owners.askedTier - before).toBe(0);
    });

    it('rebuilt from zero in any order, the copy prices as the newest event says, as before it was rebuilt', async () => {
      const org = organization();
      const history = [PREFERRED, null, VIP, PREFERRED];
      const events = history.map((tier, index) => assigned(org.organizationId, tier, index + 1));
      for (const event of events) await consumer().handle(event);
      const decided = { pricing: await pricing(org.organizationId), spread: (await quote(org)).spread };

      await service.app.get(PrismaTransactionHost).client.$executeRaw`DELETE FROM "quote"."organization_tiers" WHERE organization_id = ${org.organizationId}`;
      const before = owners.askedTier;
      const tiers = service.app.get(OrganizationTiers);
      for (const event of [events[3]!, events[0]!, events[2]!, events[1]!]) await tiers.apply(org.organizationId, event.data.tier, event.sequence);
      expect({ pricing: await pricing(org.organizationId), spread: (await quote(org)).spread }).toEqual(decided);
      expect(decided).toEqual({ pricing: { tier: { key: 'preferred', label: 'Preferred' }, spreadBps: 60, referrerShareBps: 20 }, spread: { fee: '0.60', asset: 'EUR' } });
      expect(owners.askedTier - before).toBe(0);
    });

    it('an answer remembered from the owner never overwrites an event taken meanwhile, and any event replaces the answer', async () => {
      const org = organization();
      const tiers = service.app.get(OrganizationTiers);
      expect(await consumer().handle(assigned(org.organizationId, VIP, 3))).toBe('ok');
      await tiers.rememberIfAbsent(org.organizationId, PREFERRED);
      expect(await tiers.find(org.organizationId)).toEqual(VIP);

      const other = organization();
      owners.tiers.set(other.organizationId, PREFERRED);
      expect(await pricing(other.organizationId)).toMatchObject({ tier: { key: 'preferred' }, spreadBps: 60 });
      expect(await consumer().handle(assigned(other.organizationId, VIP, 1))).toBe('ok');
      expect(await tiers.find(other.organizationId)).toEqual(VIP);
    });
  });

  describe('accounts', () => {
    it('asks the ledger about an account it has not heard of once, then checks it from its copy', async () => {
      const org = organization();
      const before = owners.askedAccount;
      for (let i = 0; i < 3; i += 1) await quote(org);
      expect(owners.askedAccount - before).toBe(1);
      expect(await service.app.get(AccountHolders).find(org.accountId)).toEqual({ accountId: org.accountId, organizationId: org.organizationId, status: 'ACTIVE' });
    });

    it('answers another organization’s account as none from its copy, and asks about an unknown one each time, remembering nothing', async () => {
      const [holder, stranger] = [organization(), organization()];
      await quote(holder);
      const before = owners.askedAccount;
      await expect(quote({ organizationId: stranger.organizationId, accountId: holder.accountId })).rejects.toMatchObject({ code: 'account_not_found' });
      expect(owners.askedAccount - before).toBe(0);

      const unknown = { organizationId: holder.organizationId, accountId: newId('account') };
      await expect(quote(unknown)).rejects.toMatchObject({ code: 'account_not_found' });
      await expect(quote(unknown)).rejects.toMatchObject({ code: 'account_not_found' });
      expect(owners.askedAccount - before).toBe(2);
      expect(await service.app.get(AccountHolders).find(unknown.accountId)).toBeUndefined();
    });

    it('never refuses on its copy alone: an account the copy holds SUSPENDED that the ledger holds ACTIVE again is quoted, and the copy learns it', async () => {
      const org = organization();
      owners.holders.set(org.accountId, { ...owners.holders.get(org.accountId)!, status: 'SUSPENDED' });
      await expect(quote(org)).rejects.toMatchObject({ code: 'invalid_request', message: `accountId: account ${org.accountId} is SUSPENDED: only an ACTIVE account can trade` });
      expect((await service.app.get(AccountHolders).find(org.accountId))?.status).toBe('SUSPENDED');

      // Active again at the ledger: the copy still says SUSPENDED.
      owners.holders.set(org.accountId, { ...owners.holders.get(org.accountId)!, status: 'ACTIVE' });
      const before = owners.askedAccount;
      await expect(quote(org)).resolves.toMatchObject({ status: 'PENDING' });
      expect(owners.askedAccount - before).toBe(1);
      expect((await service.app.get(AccountHolders).find(org.accountId))?.status).toBe('ACTIVE');
      await quote(org);
      expect(owners.askedAccount - before).toBe(1);
    });
  });

  it('a quote repeated with its command id is the first quote, even once its account is refused, and reads no command log first', async () => {
    const org = organization();
    const commandId = newId('command');
    const send = () => service.bus.send('quote', 'quotes.create', { ...org, fromAsset: 'EUR', toAsset: 'USD', fromAmount: '100', toAmount: null }, { ...SLOW, commandId });
    let first: QuoteView | undefined;
    const sent = await statementsDuring(async () => {
      first = await send();
    }, { requestId: SLOW.requestId });
    expect(sent.filter((text) => text.startsWith('SELECT command_id,'))).toEqual([]);
    expect(await send()).toEqual(first);
    owners.holders.set(org.accountId, { ...owners.holders.get(org.accountId)!, status: 'CLOSED' });
    await service.app.get(AccountHolders).remember(owners.holders.get(org.accountId)!);
    await expect(quote(org)).rejects.toMatchObject({ code: 'invalid_request' });
    expect(await send()).toEqual(first);
  });
});
