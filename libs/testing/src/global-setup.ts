import { createTestDatabase } from './test-database';

/**
 * Jest globalSetup: this jest run gets its own database, cloned from the migrated template.
 * Each running service relays every unpublished outbox row of its database, so two runs
 * sharing one database would publish each other's events onto their own queues.
 */
export default async function globalSetup(): Promise<void> {
  process.env.PFS_TEST_TEMPLATE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/pfs_test';
  process.env.DATABASE_URL = await createTestDatabase(process.env.PFS_TEST_TEMPLATE_URL);
}
