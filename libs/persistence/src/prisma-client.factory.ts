import { createHash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import { Pool, types, type CustomTypesConfig } from 'pg';
import { PrismaClient } from './generated/prisma/client';

export { Prisma, PrismaClient } from './generated/prisma/client';

/** A Prisma transaction client, as handed to adapters inside `$transaction`. */
export type PrismaTx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

export interface PrismaClientOptions {
  databaseUrl: string;
  /** Pool size per process; PostgreSQL's own limit is shared by every app. */
  poolSize?: number;
  applicationName?: string;
}

/** Prisma 7 runs on the `pg` driver through the adapter: no native query engine. */
export function createPrismaClient(options: PrismaClientOptions): PrismaClient {
  const pool = new Pool({
    connectionString: options.databaseUrl,
    max: options.poolSize ?? 10,
    application_name: options.applicationName,
    // For statements sent on the driver directly: `timestamp` columns hold UTC (as Prisma writes
    // and reads them), whatever the process's time zone. Prisma's own queries bring their parsers.
    types: { getTypeParser: driverTypeParser },
  });
  const adapter = new PrismaPg(pool, { statementNameGenerator: preparedStatementName, disposeExternalPool: true });
  const client = new PrismaClient({ adapter });
  driverPools.set(client, pool);
  return client;
}

const driverPools = new WeakMap<PrismaClient, Pool>();

const TIMESTAMP_OID = 1114;

const driverTypeParser = ((oid: number, format?: 'text' | 'binary') =>
  oid === TIMESTAMP_OID && format !== 'binary'
    ? (value: string) => new Date(`${value.replace(' ', 'T')}Z`)
    : types.getTypeParser(oid, format as 'text')) as CustomTypesConfig['getTypeParser'];

/**
 * The `pg` pool under a client made by `createPrismaClient`: the same connections Prisma uses,
 * for a raw statement sent outside an interactive transaction without Prisma's per-query work
 * (see `PrismaTransactionHost.query`).
 */
export function driverPoolOf(client: PrismaClient): Pool | undefined {
  return driverPools.get(client);
}

const statementNames = new Map<string, string>();

/**
 * Names each distinct SQL text, so `pg` prepares it once per connection and PostgreSQL skips
 * parsing and, once it settles on a generic plan, planning: on the hot reads planning cost
 * more than executing. The texts are Prisma's parameterised queries and our `$queryRaw`
 * templates, so there are as many as there are query shapes in the code.
 */
export function preparedStatementName(query: { sql: string }): string {
  let name = statementNames.get(query.sql);
  if (name === undefined) {
    name = `pfs_${createHash('sha1').update(query.sql).digest('hex').slice(0, 24)}`;
    statementNames.set(query.sql, name);
  }
  return name;
}
