import type { AddressInfo } from 'node:net';
import type { CommandBus, RunningService } from '@pfs/messaging';

// @pfs/messaging (NestJS, BullMQ) and @pfs/platform load when a service is started, not when this
// library is imported: most test files import it for a helper and would pay for both.

export interface ServiceUnderTest extends RunningService {
  adminUrl: string;
  bus: CommandBus;
  /** Stops the service and the test's command bus. */
  close(): Promise<void>;
}

/**
 * Boots a service module in this process against the real PostgreSQL and Redis, with an
 * admin port chosen by the OS and a command bus to talk to it as the gateway would.
 */
export async function startServiceUnderTest(rootModule: unknown): Promise<ServiceUnderTest> {
  const [{ bootstrapService, CommandBus }, { readPlatformConfig }] = await Promise.all([import('@pfs/messaging'), import('@pfs/platform')]);
  process.env.ADMIN_PORT = '0';
  const running = await bootstrapService(rootModule, 0);
  const config = readPlatformConfig();
  const bus = new CommandBus({ redisUrl: config.redisUrl, prefix: config.queuePrefix, timeoutMs: 5000, name: 'test-bus' });
  await bus.start();
  const port = (running.admin.address() as AddressInfo).port;
  return {
    ...running,
    adminUrl: `http://127.0.0.1:${port}`,
    bus,
    close: async () => {
      await bus.close();
      await running.stop();
    },
  };
}
