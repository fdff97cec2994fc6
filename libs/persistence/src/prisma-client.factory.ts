import { createHash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
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
  const adapter = new PrismaPg(
    {
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      application_name: options.applicationName,
    },
    { statementNameGenerator: preparedStatementName },
  );
  return new PrismaClient({ adapter });
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
