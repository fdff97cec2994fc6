import { isolateQueues, statementsDuring, testDatabaseUrl } from '@pfs/testing';
import {
  createPrismaClient,
  isCheckViolation,
  isNumericOverflow,
  isRequiredRowMissing,
  isUniqueViolation,
  Prisma,
  PrismaTransactionHost,
  requireRow,
  sendOnDriver,
  type PrismaClient,
} from '../src';

isolateQueues('persistence-driver');

const failure = (work: () => Promise<unknown>) => work().then(() => undefined, (error: unknown) => error);

describe('raw statements on the driver', () => {
  let prisma: PrismaClient;
  const table = `driver_probe_${process.pid}`;

  beforeAll(async () => {
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 2, applicationName: 'persistence-driver-test' });
    await prisma.$executeRawUnsafe(`DROP TABLE IF EXISTS public.${table}`);
    await prisma.$executeRawUnsafe(
      `CREATE TABLE public.${table} (id text PRIMARY KEY, at timestamp(3) NOT NULL, amount numeric(38, 18) NOT NULL CONSTRAINT ${table}_positive CHECK (amount > 0))`,
    );
  });

  afterAll(async () => {
    await prisma.$executeRawUnsafe(`DROP TABLE IF EXISTS public.${table}`);
    await prisma.$disconnect();
  });

  it('writes and reads a timestamp as UTC wall time whatever the process’s time zone, as Prisma does', async () => {
    const zone = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      const at = new Date('2026-07-01T12:34:56.789Z');
      await sendOnDriver(prisma, Prisma.sql`INSERT INTO ${Prisma.raw(`public.${table}`)} (id, at, amount) VALUES ('utc', ${at}, ${new Prisma.Decimal('1.5')})`);
      const throughDriver = (await sendOnDriver<{ at: Date; text: string }>(prisma, Prisma.sql`SELECT at, at::text AS text FROM ${Prisma.raw(`public.${table}`)} WHERE id = 'utc'`)).rows;
      const throughPrisma = await prisma.$queryRaw<Array<{ at: Date; amount: Prisma.Decimal }>>`SELECT at, amount FROM ${Prisma.raw(`public.${table}`)} WHERE id = 'utc'`;
      expect(throughDriver).toEqual([{ at, text: '2026-07-01 12:34:56.789' }]);
      const asTimestamptz = await sendOnDriver<{ utc: string }>(prisma, Prisma.sql`SELECT (${at}::timestamptz AT TIME ZONE 'UTC')::text AS utc`);
      expect(asTimestamptz.rows).toEqual([{ utc: '2026-07-01 12:34:56.789' }]);
      expect(throughPrisma[0]?.at).toEqual(at);
      expect(throughPrisma[0]?.amount.toFixed()).toBe('1.5');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('passes arrays as the statement needs them: Dates and Decimals inside converted, strings, numbers and nulls as they are', async () => {
    const at = [new Date('2026-07-01T12:34:56.789Z'), null];
    const amounts = [new Prisma.Decimal('0.000000000000000001'), new Prisma.Decimal('12345678901234567890.5')];
    const { rows } = await sendOnDriver<{ at: string[]; amounts: string[]; ids: string[]; counts: number[] }>(
      prisma,
      Prisma.sql`SELECT (SELECT array_agg((t AT TIME ZONE 'UTC')::text) FROM unnest(${at}::timestamptz[]) t) AS at, ${amounts}::numeric[]::text[] AS amounts, ${['a', null, 'c']}::text[] AS ids, ${[1, 2]}::int[] AS counts`,
    );
    expect(rows).toEqual([{ at: ['2026-07-01 12:34:56.789', null], amounts: ['0.000000000000000001', '12345678901234567890.5'], ids: ['a', null, 'c'], counts: [1, 2] }]);
  });

  it('goes to the driver outside a transaction and through the unit’s transaction inside an interactive unit', async () => {
    const host = new PrismaTransactionHost(prisma);
    // int8 tells the two paths apart: the driver reads it as text, Prisma as a bigint.
    const read = Prisma.sql`SELECT 7::int8 AS n, txid_current_if_assigned() IS NOT NULL AS in_write`;
    const outside = await statementsDuring(() => host.query(read));
    expect(outside).toEqual(['SELECT 7::int8 AS']);
    expect(await host.query(read)).toEqual([{ n: '7', in_write: false }]);
    await host.run(async () => {
      await host.query(Prisma.sql`SELECT txid_current()::text AS started`);
      expect(await host.query(read)).toEqual([{ n: 7n, in_write: true }]);
    });
    await expect(host.runWrites(() => host.query(read))).rejects.toThrow(/read before it opens/);
  });

  it('tells the same refusals apart as through Prisma: unique, CHECK, numeric overflow, a required row missing', async () => {
    const insert = (id: string, amount: string) =>
      sendOnDriver(prisma, Prisma.sql`INSERT INTO ${Prisma.raw(`public.${table}`)} (id, at, amount) VALUES (${id}, now(), ${amount}::numeric)`);
    await insert('taken', '1');
    const duplicate = await failure(() => insert('taken', '1'));
    expect(isUniqueViolation(duplicate)).toBe(true);
    expect(isUniqueViolation(duplicate, `${table}_pkey`)).toBe(true);
    expect(isUniqueViolation(duplicate, 'another_pkey')).toBe(false);

    const negative = await failure(() => insert('negative', '-1'));
    expect(isCheckViolation(negative, `${table}_positive`)).toBe(true);
    expect(isUniqueViolation(negative)).toBe(false);

    expect(isNumericOverflow(await failure(() => insert('huge', '100000000000000000000.5')))).toBe(true);
    expect(isNumericOverflow(negative)).toBe(false);

    const missing = await failure(() =>
      sendOnDriver(prisma, Prisma.sql`WITH none AS (SELECT id FROM ${Prisma.raw(`public.${table}`)} WHERE id = 'absent') SELECT ${requireRow(Prisma.raw('none'))} AS ok`),
    );
    expect(isRequiredRowMissing(missing)).toBe(true);
    expect(isRequiredRowMissing(duplicate)).toBe(false);
    expect((await prisma.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM ${Prisma.raw(`public.${table}`)}`)[0]?.n).toBe(2);
  });
});
