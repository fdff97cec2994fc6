import type { AddressInfo } from 'node:net';
import { bootstrapService, CommandBus, type RunningService } from '@pfs/messaging';
import { readPlatformConfig } from '@pfs/platform';

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

/**
 * Polls until `probe` returns a value other than undefined, or fails after `timeoutMs`. The
 * default deadline is generous on purpose: it only decides how late a broken test fails, and
 * a busy 2-core machine can take seconds for what usually takes milliseconds.
 */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 20000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`condition not met within ${timeoutMs} ms${lastError ? `: ${(lastError as Error).message}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
