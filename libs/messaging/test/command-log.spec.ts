import { randomBytes } from 'node:crypto';
import { DomainError, newId } from '@pfs/contracts';
import { createPrismaClient, holdsDatabaseTransaction, isRequiredRowMissing, Prisma, PrismaTransactionHost, requireRow } from '@pfs/persistence';
import { readPlatformConfig, SecretBox } from '@pfs/platform';
import { isolateQueues, statementsDuring } from '@pfs/testing';
import { COMMAND_LOG_RETENTION_MS, PrismaCommandLog } from '../src';

isolateQueues('msg-command-log');

// The exactly-once mechanism on its own, against PostgreSQL: the effect of the work is a row in
// the quote schema's inbox table (nothing else in this package uses it), counted afterwards.

const config = readPlatformConfig();
const prisma = createPrismaClient({ databaseUrl: config.databaseUrl, poolSize: 12 });
const host = new PrismaTransactionHost(prisma);
const log = new PrismaCommandLog(host, 'quote', SecretBox.derive('test pepper', 'command log results'));

/** The work of a command: one row per run, tagged with the test's marker, in the transaction it opens. */
function effect(marker: string): () => Promise<{ marker: string; runId: string }> {
  return () =>
    host.run(async () => {
      const runId = newId('event');
      await host.client.$executeRaw`INSERT INTO "quote"."processed_events" (event_id) VALUES (${`${marker}:${runId}`})`;
      return { marker, runId };
    });
}

/** The same effect, deferred: the claim, the row and the result go to PostgreSQL as one statement. */
function deferredEffect(marker: string): () => Promise<{ marker: string; runId: string }> {
  return () =>
    host.runWrites(async () => {
      const runId = newId('event');
      await host.write({
        ctes: (prefix) => [Prisma.sql`${Prisma.raw(prefix)} AS (INSERT INTO "quote"."processed_events" (event_id) VALUES (${`${marker}:${runId}`}))`],
      });
      return { marker, runId };
    });
}

async function runs(marker: string): Promise<number> {
  const [row] = await prisma.$queryRaw<Array<{ count: bigint }>>`SELECT count(*) FROM "quote"."processed_events" WHERE event_id LIKE ${`${marker}:%`}`;
  return Number(row.count);
}

const fresh = () => ({ commandId: newId('command'), marker: randomBytes(6).toString('hex') });

afterAll(async () => {
  await prisma.$disconnect();
});

describe('PrismaCommandLog.runOnce', () => {
  it('runs a command once and answers a repeat with the stored result', async () => {
    const { commandId, marker } = fresh();
    const command = { commandId, command: 'demo.create', payload: { name: 'x', amount: '1.50' } };
    const first = await log.runOnce(command, effect(marker));
    const second = await log.runOnce({ ...command, payload: { amount: '1.50', name: 'x' } }, effect(marker));
    expect(second).toEqual(first);
    expect(await runs(marker)).toBe(1);
  });

  it('lets 20 concurrent deliveries of one command produce exactly one effect, all with its result', async () => {
    const { commandId, marker } = fresh();
    const command = { commandId, command: 'demo.create', payload: { n: 1 } };
    const results = await Promise.all(Array.from({ length: 20 }, () => log.runOnce(command, effect(marker))));
    expect(await runs(marker)).toBe(1);
    expect(new Set(results.map((result) => result.runId)).size).toBe(1);
  });

  it('reads the ids of commands that arrive together in one statement, each answered its own', async () => {
    const done = fresh();
    const command = (commandId: string, name = 'demo.create') => ({ commandId, command: name, payload: { n: commandId } });
    const stored = await log.runOnce(command(done.commandId), effect(done.marker));
    const others = Array.from({ length: 5 }, () => fresh());
    const sent = await statementsDuring(async () => {
      const answers = await Promise.all([
        log.runOnce(command(done.commandId), effect(done.marker)),
        // The same id under another command name is another command.
        ...others.map((other, index) => log.runOnce(command(index === 0 ? done.commandId : other.commandId, index === 0 ? 'demo.other' : 'demo.create'), effect(other.marker))),
      ]);
      expect(answers[0]).toEqual(stored);
      expect(answers.slice(1).map((answer) => (answer as { marker: string }).marker)).toEqual(others.map((other) => other.marker));
    });
    expect(sent.filter((text) => text.startsWith('SELECT command_id,'))).toEqual(['SELECT command_id, command,']);
    expect(await runs(done.marker)).toBe(1);
    for (const other of others) expect(await runs(other.marker)).toBe(1);
  });

  it('stores the result sealed: nothing of it is readable in the table', async () => {
    const { commandId, marker } = fresh();
    await log.runOnce({ commandId, command: 'demo.sign-up', payload: {} }, () => host.run(async () => ({ apiKey: `sk_test_${marker}` })));
    const [row] = await prisma.$queryRaw<Array<{ result: unknown }>>`SELECT result FROM "quote"."command_log" WHERE command_id = ${commandId}`;
    expect(JSON.stringify(row.result)).not.toContain(marker);
    expect(await log.runOnce({ commandId, command: 'demo.sign-up', payload: {} }, async () => ({ apiKey: 'another' }))).toEqual({
      apiKey: `sk_test_${marker}`,
    });
  });

  it('keeps commands apart by id and by name', async () => {
    const { commandId, marker } = fresh();
    await log.runOnce({ commandId, command: 'demo.create', payload: {} }, effect(marker));
    await log.runOnce({ commandId, command: 'demo.enable', payload: {} }, effect(marker));
    await log.runOnce({ commandId: newId('command'), command: 'demo.create', payload: {} }, effect(marker));
    expect(await runs(marker)).toBe(3);
  });

  it('records nothing when the command fails, so a retry runs it', async () => {
    const { commandId, marker } = fresh();
    const command = { commandId, command: 'demo.create', payload: {} };
    const failing = () =>
      host.run(async () => {
        await effect(marker)();
        throw new DomainError('insufficient_funds', 'short');
      });
    await expect(log.runOnce(command, failing)).rejects.toMatchObject({ code: 'insufficient_funds' });
    expect(await runs(marker)).toBe(0);
    await log.runOnce(command, effect(marker));
    expect(await runs(marker)).toBe(1);
  });

  it('refuses the same id with another payload (a reused Idempotency-Key) and changes nothing', async () => {
    const { commandId, marker } = fresh();
    await log.runOnce({ commandId, command: 'demo.create', payload: { amount: '1' } }, effect(marker));
    await expect(log.runOnce({ commandId, command: 'demo.create', payload: { amount: '2' } }, effect(marker))).rejects.toMatchObject({
      code: 'idempotency_key_in_use',
    });
    expect(await runs(marker)).toBe(1);
  });

  it('joins the transaction the work opens, so the entry and the effect commit together', async () => {
    const { commandId, marker } = fresh();
    const rolledBack = log.runOnce({ commandId, command: 'demo.create', payload: {} }, () =>
      host.run(async () => {
        await effect(marker)();
        // A failure after the effect, inside the same transaction (e.g. a unique violation).
        await host.client.$executeRaw`INSERT INTO "quote"."processed_events" (event_id) VALUES (${Prisma.raw("'dup'")}), (${Prisma.raw("'dup'")})`;
      }),
    );
    await expect(rolledBack).rejects.toThrow();
    expect(await runs(marker)).toBe(0);
    const [row] = await prisma.$queryRaw<Array<{ count: bigint }>>`SELECT count(*) FROM "quote"."command_log" WHERE command_id = ${commandId}`;
    expect(Number(row.count)).toBe(0);
  });

  it('holds no transaction while the work asks before opening its own, and claims the id inside that one', async () => {
    const { commandId, marker } = fresh();
    const seen: boolean[] = [];
    const result = await log.runOnce({ commandId, command: 'demo.create', payload: {} }, async () => {
      // The question another service would be asked: no connection is held for it.
      seen.push(holdsDatabaseTransaction(), host.inTransaction);
      return host.run(async () => {
        const [claim] = await host.client.$queryRaw<Array<{ count: bigint }>>`SELECT count(*) FROM "quote"."command_log" WHERE command_id = ${commandId}`;
        seen.push(holdsDatabaseTransaction(), Number(claim.count) === 1);
        return effect(marker)();
      });
    });
    expect(seen).toEqual([false, false, true, true]);
    expect(await log.runOnce({ commandId, command: 'demo.create', payload: {} }, effect(marker))).toEqual(result);
    expect(await runs(marker)).toBe(1);
  });

  it('answers a repeat of a committed command from the log without running any of the work', async () => {
    const { commandId, marker } = fresh();
    const command = { commandId, command: 'demo.create', payload: {} };
    const first = await log.runOnce(command, effect(marker));
    let asked = 0;
    const repeat = await log.runOnce(command, async () => {
      asked += 1;
      // What is true now (say, the beneficiary was blocked since) must not replace the stored answer.
      throw new DomainError('beneficiary_blocked', 'blocked since');
    });
    expect(repeat).toEqual(first);
    expect(asked).toBe(0);
  });

  it('lets 20 concurrent deliveries that each ask first produce one effect, all answered with its result', async () => {
    const { commandId, marker } = fresh();
    const command = { commandId, command: 'demo.create', payload: { n: 2 } };
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        log.runOnce(command, async () => {
          await new Promise((resolve) => setImmediate(resolve));
          return effect(marker)();
        }),
      ),
    );
    expect(await runs(marker)).toBe(1);
    expect(new Set(results.map((result) => result.runId)).size).toBe(1);
  });

  it('brackets only the first transaction: one opened after a refusal rolled back is not the command', async () => {
    const { commandId, marker } = fresh();
    const command = { commandId, command: 'demo.create', payload: {} };
    const refused = log.runOnce(command, async () => {
      try {
        await host.run(async () => {
          await effect(marker)();
          throw new DomainError('quote_expired', 'expired');
        });
      } finally {
        // What a refusal leaves behind (a quote stored EXPIRED) is written on its own.
        await effect(`${marker}-after`)();
      }
    });
    await expect(refused).rejects.toMatchObject({ code: 'quote_expired' });
    expect(await runs(marker)).toBe(0);
    expect(await runs(`${marker}-after`)).toBe(1);
    await log.runOnce(command, effect(marker));
    expect(await runs(marker)).toBe(1);
  });

  it('refuses a work whose answer is not what its transaction returned: the reply and a repeat would differ', async () => {
    const { commandId, marker } = fresh();
    const diverging = log.runOnce({ commandId, command: 'demo.create', payload: {} }, async () => {
      await effect(marker)();
      return { marker, runId: 'another' };
    });
    await expect(diverging).rejects.toThrow('returned a value other than the one its transaction returned');
  });

  it('purges entries older than the retention, which outlasts the gateway’s 24 h idempotency window', async () => {
    expect(COMMAND_LOG_RETENTION_MS).toBeGreaterThan(24 * 60 * 60 * 1000);
    const { commandId, marker } = fresh();
    await log.runOnce({ commandId, command: 'demo.create', payload: {} }, effect(marker));
    await prisma.$executeRaw`UPDATE "quote"."command_log" SET created_at = now() - interval '8 days' WHERE command_id = ${commandId}`;
    expect(await log.purge(new Date(Date.now() - COMMAND_LOG_RETENTION_MS))).toBeGreaterThanOrEqual(1);
    await log.runOnce({ commandId, command: 'demo.create', payload: {} }, effect(marker));
    expect(await runs(marker)).toBe(2);
  });
});

describe('PrismaCommandLog.runOnce with a write-only unit of work', () => {
  it('writes claim, effect and result together, and answers a repeat with the stored result', async () => {
    const { commandId, marker } = fresh();
    const command = { commandId, command: 'demo.credit', payload: { amount: '2' } };
    const first = await log.runOnce(command, deferredEffect(marker));
    expect(await runs(marker)).toBe(1);
    expect(await log.runOnce(command, deferredEffect(marker))).toEqual(first);
    expect(await runs(marker)).toBe(1);
  });

  it('lets 20 concurrent deliveries produce exactly one effect, all answered with its result', async () => {
    const { commandId, marker } = fresh();
    const command = { commandId, command: 'demo.credit', payload: { n: 1 } };
    const results = await Promise.all(Array.from({ length: 20 }, () => log.runOnce(command, deferredEffect(marker))));
    expect(await runs(marker)).toBe(1);
    expect(new Set(results.map((result) => result.runId)).size).toBe(1);
  });

  it('refuses a reused id with another payload, changing nothing', async () => {
    const { commandId, marker } = fresh();
    await log.runOnce({ commandId, command: 'demo.credit', payload: { amount: '1' } }, deferredEffect(marker));
    await expect(log.runOnce({ commandId, command: 'demo.credit', payload: { amount: '9' } }, deferredEffect(marker))).rejects.toMatchObject({
      code: 'idempotency_key_in_use',
    });
    expect(await runs(marker)).toBe(1);
  });

  it('writes nothing, the claim included, when its statement is refused, so a retry runs it', async () => {
    const { commandId, marker } = fresh();
    const command = { commandId, command: 'demo.credit', payload: {} };
    const refused = () =>
      host.runWrites(async () => {
        await host.write({ ctes: (prefix) => [Prisma.sql`${Prisma.raw(prefix)} AS (INSERT INTO "quote"."processed_events" (event_id) VALUES (${`${marker}:a`}))`] });
        // The same key twice in one statement: PostgreSQL refuses the whole of it.
        await host.write({ ctes: (prefix) => [Prisma.sql`${Prisma.raw(prefix)} AS (INSERT INTO "quote"."processed_events" (event_id) VALUES (${`${marker}:a`}))`] });
        return { marker, runId: 'never' };
      });
    await expect(log.runOnce(command, refused)).rejects.toThrow();
    expect(await runs(marker)).toBe(0);
    await log.runOnce(command, deferredEffect(marker));
    expect(await runs(marker)).toBe(1);
  });

  it('after a refused statement, the work’s next unit carries the claim and its result: a repeat gets that result', async () => {
    const { commandId, marker } = fresh();
    const command = { commandId, command: 'demo.credit', payload: { guarded: true } };
    // A guarded write whose guard fails (the row it needs is missing): nothing of the statement is written.
    const guarded = () =>
      host.runWrites(async () => {
        await host.write({
          ctes: (prefix) => [Prisma.sql`${Prisma.raw(prefix)} AS (SELECT event_id FROM "quote"."processed_events" WHERE event_id = ${`${marker}:missing`})`],
          returning: (prefix) => requireRow(Prisma.raw(prefix)),
          refusal: (error) => (isRequiredRowMissing(error) ? new Error('guard refused') : undefined),
        });
        return { marker, runId: 'never' };
      });
    const work = async () => {
      await expect(guarded()).rejects.toThrow('guard refused');
      return deferredEffect(marker)();
    };
    const first = await log.runOnce(command, work);
    expect(await runs(marker)).toBe(1);
    expect(await log.runOnce(command, deferredEffect(marker))).toEqual(first);
    expect(await runs(marker)).toBe(1);
  });

  it('after a refused statement, work that answers without another unit stores nothing, and a repeat runs again', async () => {
    const { commandId, marker } = fresh();
    const command = { commandId, command: 'demo.read-back', payload: {} };
    const refused = () =>
      host.runWrites(async () => {
        await host.write({ ctes: (prefix) => [Prisma.sql`${Prisma.raw(prefix)} AS (INSERT INTO "quote"."processed_events" (event_id) VALUES (${`${marker}:a`}), (${`${marker}:a`}))`] });
        return { marker, runId: 'never' };
      });
    const answered = async () => {
      await expect(refused()).rejects.toThrow();
      return { marker, runId: 'read back' };
    };
    expect(await log.runOnce(command, answered)).toEqual({ marker, runId: 'read back' });
    expect(await log.runOnce(command, deferredEffect(marker))).toMatchObject({ marker, runId: expect.stringMatching(/^evt_/) });
    expect(await runs(marker)).toBe(1);
  });

  it('holds no connection while its work runs, and refuses a read inside it', async () => {
    await host.runWrites(async () => {
      expect(holdsDatabaseTransaction()).toBe(false);
      expect(() => host.client).toThrow('read before it opens');
    });
  });
});

describe('PrismaCommandLog.runOnce for a command found by its claim (`replay: on-claim`)', () => {
  const onClaim = (commandId: string, payload: unknown = { amount: '2' }) => ({ commandId, command: 'demo.credit', payload, readFirst: false });

  it('reads nothing before the work: a first delivery is one statement', async () => {
    const { commandId, marker } = fresh();
    const sent = await statementsDuring(() => log.runOnce(onClaim(commandId), deferredEffect(marker)));
    expect(sent.filter((text) => text.startsWith('SELECT command_id,'))).toEqual([]);
    expect(sent).toHaveLength(1);
    expect(await runs(marker)).toBe(1);
  });

  it('answers a repeat with the stored result where its claim meets the first, changing nothing', async () => {
    const { commandId, marker } = fresh();
    const first = await log.runOnce(onClaim(commandId), deferredEffect(marker));
    expect(await log.runOnce(onClaim(commandId), deferredEffect(marker))).toEqual(first);
    expect(await runs(marker)).toBe(1);
  });

  it('answers a repeat whose work now refuses with what the first delivery was answered', async () => {
    const { commandId, marker } = fresh();
    const first = await log.runOnce(onClaim(commandId), deferredEffect(marker));
    // Since then the account was suspended, say: the work refuses before it writes anything.
    const refusing = async (): Promise<{ marker: string; runId: string }> => {
      throw new DomainError('forbidden', 'the account can no longer trade');
    };
    expect(await log.runOnce(onClaim(commandId), refusing)).toEqual(first);
    expect(await runs(marker)).toBe(1);
  });

  it('passes a first delivery’s refusal on, storing nothing, so a retry runs it', async () => {
    const { commandId, marker } = fresh();
    await expect(
      log.runOnce(onClaim(commandId), async () => {
        throw new DomainError('insufficient_funds', 'short');
      }),
    ).rejects.toMatchObject({ code: 'insufficient_funds' });
    await log.runOnce(onClaim(commandId), deferredEffect(marker));
    expect(await runs(marker)).toBe(1);
  });

  it('lets 20 concurrent deliveries produce exactly one effect, all answered with its result', async () => {
    const { commandId, marker } = fresh();
    const results = await Promise.all(Array.from({ length: 20 }, () => log.runOnce(onClaim(commandId, { n: 1 }), deferredEffect(marker))));
    expect(await runs(marker)).toBe(1);
    expect(new Set(results.map((result) => result.runId)).size).toBe(1);
  });

  it('refuses a reused id with another payload, changing nothing', async () => {
    const { commandId, marker } = fresh();
    await log.runOnce(onClaim(commandId, { amount: '1' }), deferredEffect(marker));
    await expect(log.runOnce(onClaim(commandId, { amount: '9' }), deferredEffect(marker))).rejects.toMatchObject({ code: 'idempotency_key_in_use' });
    expect(await runs(marker)).toBe(1);
  });
});
