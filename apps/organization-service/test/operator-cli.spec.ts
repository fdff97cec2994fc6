import { Queue } from 'bullmq';
import { deadLetterQueueName, eventQueueName, hashApiKey, isId, newId, type EventEnvelope } from '@pfs/contracts';
import { createRedisConnection, DeadLetters } from '@pfs/messaging';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { readPlatformConfig } from '@pfs/platform';
import { isolateQueues } from '@pfs/testing';
import { ensureCliBuilt, runCli, runCliProcess } from './support/built-cli';
import { outboxRowsFor, uniqueName } from './support/organization-test-kit';
import { StandInLedger } from './support/stand-in-ledger';

const prefix = isolateQueues('org-cli');
// The process cases start Node; on a loaded 2-core machine one can take seconds.
jest.setTimeout(120_000);

/**
 * Operators run `pnpm cli …`. The built `dist/cli.js` runs as a real process where only a
 * process shows the fact (exit code, nothing but the result on stdout, no handle left open);
 * every other case runs the same entry point in this process.
 */
describe('operator CLI (dist/cli.js)', () => {
  const config = readPlatformConfig();
  let prisma: PrismaClient;
  // org:create opens the primary account on the running ledger: answered here, on this file's queues.
  let ledger: StandInLedger;
  // Logging on for the process runs: the point is that nothing but the JSON reaches stdout even then.
  const processEnv = { LOG_LEVEL: 'debug' };
  const env = {};

  beforeAll(async () => {
    ensureCliBuilt();
    prisma = createPrismaClient({ databaseUrl: config.databaseUrl, applicationName: 'organization-cli-test', poolSize: 2 });
    ledger = new StandInLedger(config.redisUrl, prefix);
    await ledger.start();
  }, 60000);

  afterAll(async () => {
    await ledger?.stop();
    await prisma?.$disconnect();
  });

  async function createOrganization(name: string) {
    const run = await runCli(['org:create', '--name', name, '--approved', '--json'], env);
    expect(run.code).toBe(0);
    return { run, created: JSON.parse(run.stdout) as { organizationId: string; accountId: string; apiKey: string } };
  }

  it('org:create --json prints exactly one JSON object with the organization, account and key', async () => {
    const name = uniqueName('CLI');
    const run = await runCliProcess(['org:create', '--name', name, '--approved', '--json'], processEnv);
    expect(run.code).toBe(0);
    const created = JSON.parse(run.stdout) as { organizationId: string; accountId: string; apiKey: string };

    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    expect(Object.keys(created).sort()).toEqual(['accountId', 'apiKey', 'organizationId']);
    expect(isId('organization', created.organizationId)).toBe(true);
    expect(isId('account', created.accountId)).toBe(true);
    expect(created.apiKey).toMatch(/^sk_test_[0-9a-f]{64}$/);
    expect(run.stderr).not.toContain(created.apiKey);
    // It closes its connections and exits on its own (code 0), not killed by the 90 s hang guard:
    // a handle left open would keep it alive forever, however fast the machine.
    expect(run.code).toBe(0);

    const organization = await prisma.organization.findUniqueOrThrow({ where: { id: created.organizationId } });
    expect(organization).toMatchObject({ name, verificationStatus: 'APPROVED', primaryAccountId: created.accountId });
    const key = await prisma.apiKey.findUniqueOrThrow({ where: { keyHash: hashApiKey(created.apiKey, config.apiKeyPepper) } });
    expect(key).toMatchObject({ organizationId: created.organizationId, revokedAt: null });
    // The events are recorded, and handed to their queues by the CLI itself before it exits:
    // no subscriber waits for the running service's poll.
    const events = await outboxRowsFor(prisma, created.organizationId);
    expect(events.map((event) => event.type)).toEqual(['organization.created', 'organization.standing.updated']);
    expect(events[0].payload).toMatchObject({ data: { primaryAccountId: created.accountId } });
    for (const event of events) expect(event.publishedAt).toBeInstanceOf(Date);
  });

  it('org:create prints only once the ledger has opened the primary account, asked after the organization committed', async () => {
    ledger.inspect = async ({ organizationId }) => (await prisma.organization.findUnique({ where: { id: organizationId } }))?.primaryAccountId ?? null;
    const { created } = await createOrganization(uniqueName('CLI account'));
    expect(ledger.requests.filter((request) => request.payload.organizationId === created.organizationId)).toEqual([
      { payload: { organizationId: created.organizationId, accountId: created.accountId }, commandId: `primary-account:${created.organizationId}`, seen: created.accountId },
    ]);
  });

  it('org:create without a running ledger still prints the stored organization and its key, and exits 1 saying the event opens the account', async () => {
    await ledger.stop();
    try {
      const run = await runCli(['org:create', '--name', uniqueName('CLI no ledger'), '--approved', '--json'], env);
      expect(run.code).toBe(1);
      const created = JSON.parse(run.stdout) as { organizationId: string; accountId: string; apiKey: string };
      expect(created.apiKey).toMatch(/^sk_test_[0-9a-f]{64}$/);
      expect(run.stderr).toContain(
        `error: the primary account ${created.accountId} of ${created.organizationId} is not open yet: The ledger service is unavailable; try again shortly.`,
      );
      expect(run.stderr).toContain('the ledger opens the account from organization.created once it is running');
      expect(run.stderr).not.toContain(created.apiKey);
      const key = await prisma.apiKey.findUniqueOrThrow({ where: { keyHash: hashApiKey(created.apiKey, config.apiKeyPepper) } });
      expect(key.organizationId).toBe(created.organizationId);
      expect((await outboxRowsFor(prisma, created.organizationId)).map((event) => event.type)).toEqual(['organization.created', 'organization.standing.updated']);
    } finally {
      ledger = new StandInLedger(config.redisUrl, prefix);
      await ledger.start();
    }
  });

  it('org:create without --approved leaves the organization PENDING and prints a readable summary', async () => {
    const name = uniqueName('CLI pending');
    const run = await runCli(['org:create', '--name', name], env);
    expect(run.code).toBe(0);
    const organizationId = /org_[0-9a-f]{32}/.exec(run.stdout)?.[0];
    expect(organizationId).toBeDefined();
    expect(run.stdout).toMatch(/acct_[0-9a-f]{32}/);
    expect(run.stdout).toMatch(/sk_test_[0-9a-f]{64}/);
    expect(run.stdout).toContain('PENDING');
    const organization = await prisma.organization.findUniqueOrThrow({ where: { id: organizationId } });
    expect(organization.verificationStatus).toBe('PENDING');
  });

  it('key:create adds a key and key:revoke revokes it', async () => {
    const { created } = await createOrganization(uniqueName('CLI keys'));

    const keyRun = await runCli(['key:create', '--org', created.organizationId, '--json'], env);
    expect(keyRun.code).toBe(0);
    const key = JSON.parse(keyRun.stdout) as { keyId: string; apiKey: string };
    expect(Object.keys(key).sort()).toEqual(['apiKey', 'keyId']);
    expect(isId('apiKey', key.keyId)).toBe(true);
    expect(key.apiKey).toMatch(/^sk_test_[0-9a-f]{64}$/);
    expect(key.apiKey).not.toBe(created.apiKey);
    const row = await prisma.apiKey.findUniqueOrThrow({ where: { id: key.keyId } });
    expect(row).toMatchObject({ organizationId: created.organizationId, keyHash: hashApiKey(key.apiKey, config.apiKeyPepper), revokedAt: null });

    const revokeRun = await runCli(['key:revoke', '--key', key.keyId], env);
    expect(revokeRun.code).toBe(0);
    expect(revokeRun.stdout).toContain(key.keyId);
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: key.keyId } })).revokedAt).not.toBeNull();
    // The organization's first key is untouched.
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { keyHash: hashApiKey(created.apiKey, config.apiKeyPepper) } })).revokedAt).toBeNull();

    const again = await runCli(['key:revoke', '--key', key.keyId, '--json'], env);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ keyId: key.keyId, organizationId: created.organizationId });
  });

  it('referrals:suspend and referrals:resume switch the organization’s referrals off and on again', async () => {
    const { created } = await createOrganization(uniqueName('CLI referrals'));
    const organizationId = created.organizationId;

    const suspend = await runCli(['referrals:suspend', '--org', organizationId, '--json'], env);
    expect(suspend.code).toBe(0);
    const suspended = JSON.parse(suspend.stdout) as { organizationId: string; enabledAt: string | null; suspendedAt: string };
    expect(suspended).toEqual({ organizationId, enabledAt: null, suspendedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) });
    expect(await prisma.referralProgram.findUniqueOrThrow({ where: { organizationId } })).toMatchObject({ suspendedAt: new Date(suspended.suspendedAt) });

    const resume = await runCli(['referrals:resume', '--org', organizationId], env);
    expect(resume.code).toBe(0);
    expect(resume.stdout).toBe(`Referrals of ${organizationId} are not suspended.\n`);
    expect(await prisma.referralProgram.findUniqueOrThrow({ where: { organizationId } })).toMatchObject({ suspendedAt: null });

    const unknown = await runCli(['referrals:suspend', '--org', 'org_ffffffffffffffffffffffffffff0000'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('organization_not_found');
  });

  it('exits 1 with the reason on stderr for an unknown organization or key', async () => {
    const unknownOrg = await runCli(['key:create', '--org', 'org_ffffffffffffffffffffffffffff0000', '--json'], env);
    expect(unknownOrg.code).toBe(1);
    expect(unknownOrg.stdout).toBe('');
    expect(unknownOrg.stderr).toContain('organization_not_found');

    const unknownKey = await runCli(['key:revoke', '--key', 'key_ffffffffffffffffffffffffffff0000'], env);
    expect(unknownKey.code).toBe(1);
    expect(unknownKey.stdout).toBe('');
    expect(unknownKey.stderr).toContain('not_found');
  });

  describe('dead letters (Redis only)', () => {
    const redis = createRedisConnection(config.redisUrl, 'organization-cli-test');
    const deadLetters = new DeadLetters(redis, { prefix: config.queuePrefix, maxAttempts: 5 });
    const ledgerEvents = new Queue(eventQueueName('ledger'), { connection: redis, prefix: config.queuePrefix });
    const ledgerDead = new Queue(deadLetterQueueName('ledger'), { connection: redis, prefix: config.queuePrefix });
    // The dead-letter commands never touch PostgreSQL: an unreachable one changes nothing.
    const redisOnly = { ...env, DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/unreachable', EVENT_MAX_ATTEMPTS: '7' };
    const PERSONAL = 'Dead Letter Personal Name Ltd';

    afterAll(async () => {
      await deadLetters.close();
      for (const queue of [ledgerEvents, ledgerDead]) {
        await queue.obliterate({ force: true });
        await queue.close();
      }
      redis.disconnect();
    });

    async function deadLettered(): Promise<EventEnvelope<'organization.created'>> {
      const organizationId = newId('organization');
      const event: EventEnvelope<'organization.created'> = {
        id: newId('event'),
        type: 'organization.created',
        source: 'organization',
        occurredAt: '2026-11-23T10:00:00.000Z',
        requestId: null,
        aggregateId: organizationId,
        sequence: 1,
        data: {
          organizationId,
          primaryAccountId: newId('account'),
          name: PERSONAL,
          parentOrganizationId: null,
          referrerOrganizationId: null,
          createdAt: '2026-11-23T10:00:00.000Z',
        },
      };
      await deadLetters.add('ledger', { id: event.id, name: event.type, data: event }, { reason: 'ledger database down', attempts: 300, failedAt: '2026-11-24T10:00:00.000Z' });
      return event;
    }

    it('dead-letters:list shows each subscriber’s dead letters, the envelope only with --json', async () => {
      const first = await deadLettered();
      const second = await deadLettered();

      const json = await runCli(['dead-letters:list', '--service', 'ledger', '--json'], redisOnly);
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual([
        {
          service: 'ledger',
          total: 2,
          deadLetters: [first, second].map((event) => ({
            eventId: event.id,
            type: 'organization.created',
            reason: 'ledger database down',
            attempts: 300,
            failedAt: '2026-11-24T10:00:00.000Z',
            event,
          })),
        },
      ]);

      const text = await runCli(['dead-letters:list'], redisOnly);
      expect(text.code).toBe(0);
      expect(text.stdout).toContain('ledger (ledger-events-dead): 2 dead letters');
      expect(text.stdout).toContain(`${first.id}  organization.created  failed 2026-11-24T10:00:00.000Z after 300 attempts: ledger database down`);
      expect(text.stdout).toContain('organization (organization-events-dead): no dead letters');
      expect(text.stdout).toContain('webhook-delivery (webhook-delivery-events-dead): no dead letters');
      expect(text.stdout + text.stderr).not.toContain(PERSONAL);

      await ledgerDead.obliterate({ force: true });
    });

    it('dead-letters:replay puts one event, or all, back on the subscriber’s queue with fresh attempts', async () => {
      const first = await deadLettered();
      const second = await deadLettered();

      const one = await runCli(['dead-letters:replay', '--service', 'ledger', '--event', first.id, '--json'], redisOnly);
      expect(one.code).toBe(0);
      expect(JSON.parse(one.stdout)).toEqual({ service: 'ledger', replayed: [first.id], alreadyQueued: [] });
      const job = await ledgerEvents.getJob(first.id);
      expect(job?.name).toBe('organization.created');
      expect(job?.data).toEqual(first);
      expect(job?.opts).toMatchObject({ attempts: 7 });
      expect(await ledgerDead.getJob(first.id)).toBeUndefined();

      const again = await runCli(['dead-letters:replay', '--service', 'ledger', '--event', first.id], redisOnly);
      expect(again.code).toBe(1);
      expect(again.stdout).toBe('');
      expect(again.stderr).toContain(`no dead letter ${first.id} in ledger-events-dead`);

      const all = await runCli(['dead-letters:replay', '--service', 'ledger', '--all'], redisOnly);
      expect(all.code).toBe(0);
      expect(all.stdout).toBe(`Replayed 1 event to ledger-events:\n  ${second.id}\n`);
      expect((await ledgerEvents.getJob(second.id))?.data).toEqual(second);
      expect(JSON.parse((await runCli(['dead-letters:list', '--service', 'ledger', '--json'], redisOnly)).stdout)).toEqual([
        { service: 'ledger', total: 0, deadLetters: [] },
      ]);
    });
  });

  it.each([
    [['dead-letters:replay', '--service', 'ledger'], '--all'],
    [['dead-letters:list', '--service', 'gateway'], '--service'],
    [['org:create', '--json'], '--name'],
    [['org:create', '--name', 'Acme', '--bogus'], '--bogus'],
    [['key:create'], '--org'],
    [['frobnicate'], 'unknown command'],
  ])('exits 2 on bad usage %j, explaining on stderr', async (args, mention) => {
    const run = await runCli(args, env);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(mention);
    expect(run.stderr).toContain('Usage: pnpm cli');
  });

  it('dist/cli.js ends its process with the exit code of a failed command', async () => {
    const run = await runCliProcess(['frobnicate'], processEnv);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('unknown command');
    expect(run.stderr).toContain('Usage: pnpm cli');
  });
});
