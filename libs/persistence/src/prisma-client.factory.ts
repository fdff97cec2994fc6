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
  const adapter = new PrismaPg({
    connectionString: options.databaseUrl,
    max: options.poolSize ?? 10,
    application_name: options.applicationName,
  });
  return new PrismaClient({ adapter });
}
