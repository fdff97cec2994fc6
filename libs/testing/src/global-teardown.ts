import { dropTestDatabase } from './test-database';

export default async function globalTeardown(): Promise<void> {
  if (process.env.DATABASE_URL && process.env.DATABASE_URL !== process.env.PFS_TEST_TEMPLATE_URL) {
    await dropTestDatabase(process.env.DATABASE_URL);
  }
}
