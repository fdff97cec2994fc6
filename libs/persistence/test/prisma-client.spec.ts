import { isolateQueues, testDatabaseUrl } from '@pfs/testing';
import { createPrismaClient, isNumericOverflow, preparedStatementName } from '../src';

isolateQueues('persistence-client');

describe('Prisma client', () => {
  it('names each distinct SQL text once, within PostgreSQL’s 63-character identifier limit', () => {
    const read = preparedStatementName({ sql: 'SELECT 1 WHERE $1::text IS NOT NULL' });
    expect(read).toMatch(/^pfs_[0-9a-f]{24}$/);
    expect(preparedStatementName({ sql: 'SELECT 1 WHERE $1::text IS NOT NULL' })).toBe(read);
    expect(preparedStatementName({ sql: 'SELECT 2 WHERE $1::text IS NOT NULL' })).not.toBe(read);
  });

  it('prepares a query once per connection and reuses it, with the right results each time', async () => {
    const prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 1, applicationName: 'persistence-prepared-test' });
    try {
      for (const value of ['a', 'b', 'c']) {
        const rows = await prisma.$queryRaw<Array<{ echoed: string }>>`SELECT ${value}::text AS echoed`;
        expect(rows).toEqual([{ echoed: value }]);
      }
      // One connection: the statements it has prepared are the ones this session sees.
      const prepared = await prisma.$queryRaw<Array<{ name: string; statement: string }>>`SELECT name, statement FROM pg_prepared_statements`;
      const echo = prepared.filter((row) => row.statement.includes('AS echoed'));
      expect(echo).toEqual([{ name: preparedStatementName({ sql: echo[0]?.statement ?? '' }), statement: expect.stringContaining('$1::text AS echoed') }]);
    } finally {
      await prisma.$disconnect();
    }
  });

  it('tells a value too large for numeric(38, 18) from any other failure, in raw and model queries', async () => {
    const prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 1, applicationName: 'persistence-overflow-test' });
    const failure = (work: () => Promise<unknown>) => work().then(() => undefined, (error: unknown) => error);
    try {
      const tooLarge = '100000000000000000000.5';
      expect(isNumericOverflow(await failure(() => prisma.$queryRaw`SELECT ${tooLarge}::numeric(38, 18) AS amount`))).toBe(true);
      expect(isNumericOverflow(await failure(() => prisma.ledgerBalance.updateMany({ where: { accountId: 'acct_none' }, data: { amount: tooLarge } })))).toBe(true);
      const other = await failure(() => prisma.$queryRaw`SELECT 1 / 0 AS nothing`);
      expect(other).toBeInstanceOf(Error);
      expect(isNumericOverflow(other)).toBe(false);
      expect(await failure(() => prisma.$queryRaw`SELECT ${'99999999999999999999.5'}::numeric(38, 18) AS amount`)).toBeUndefined();
    } finally {
      await prisma.$disconnect();
    }
  });
});
