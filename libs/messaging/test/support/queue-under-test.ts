import { Queue } from 'bullmq';
import { commandNames, commandQueueName, type CommandService } from '@pfs/contracts';
import { readPlatformConfig, type Logger } from '@pfs/platform';
import { CommandBus, CommandConsumer, createRedisConnection, type AnyCommandHandler, type CommandLog } from '../../src';

export interface QueueUnderTest {
  bus: CommandBus;
  /** The service's queue of mutations, to look at their jobs. */
  queue: Queue;
  /** Its queue of queries. */
  queries: Queue;
}

/**
 * One service's command queues in this process: every command answered by `execute`, a bus to
 * send to it, started before the file's tests and closed after them (the queue obliterated).
 */
export function useQueueUnderTest<S extends CommandService>(
  service: S,
  execute: (command: string, payload: unknown) => Promise<unknown>,
  options: { prefix: string; logger: Logger; commandLog: CommandLog },
): QueueUnderTest {
  const config = readPlatformConfig();
  const redis = createRedisConnection(config.redisUrl, `${service}-queue-under-test`);
  const queue = new Queue(commandQueueName(service, 'mutations'), { connection: redis, prefix: options.prefix });
  const queries = new Queue(commandQueueName(service, 'queries'), { connection: redis, prefix: options.prefix });
  const handlers = commandNames(service).map((command) => ({ command, execute: (payload: unknown) => execute(command, payload) }) as unknown as AnyCommandHandler<S>);
  const consumer = new CommandConsumer(service, handlers, { redisUrl: config.redisUrl, ...options });
  const bus = new CommandBus({ redisUrl: config.redisUrl, prefix: options.prefix, timeoutMs: 5000, name: `${service}-test-bus` });

  beforeAll(async () => {
    await Promise.all([consumer.start(), bus.start()]);
  });

  afterAll(async () => {
    await Promise.all([consumer.close(), bus.close()]);
    for (const lane of [queue, queries]) {
      await lane.obliterate({ force: true });
      await lane.close();
    }
    redis.disconnect();
  });

  return { bus, queue, queries };
}
