import { prepareTestDatabase } from './test-env';

export default async function globalSetup(): Promise<void> {
  await prepareTestDatabase();
}
