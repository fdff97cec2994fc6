import { Worker, type Job } from 'bullmq';
import { commandQueueName, type CommandJobData, type CommandPayload, type CommandReplyMessage } from '@pfs/contracts';
import { createProducerConnection, createRedisConnection, type RedisClient } from '@pfs/messaging';

export interface OpenPrimaryRequest {
  payload: CommandPayload<'ledger', 'accounts.open-primary'>;
  commandId: string;
  /** What `inspect` found when the request arrived. */
  seen: unknown;
}

/**
 * The ledger's command queue answered in this process, over the real BullMQ transport: it
 * records each `accounts.open-primary` and answers it as the ledger does (opened once per
 * account). The organization service is tested without the ledger's process; the gateway's
 * end-to-end tests run the real one.
 */
export class StandInLedger {
  readonly requests: OpenPrimaryRequest[] = [];
  /** Looks at the world as the request arrives (e.g. whether the organization's row is committed). */
  inspect: (payload: CommandPayload<'ledger', 'accounts.open-primary'>) => Promise<unknown> = async () => undefined;
  private readonly opened = new Set<string>();
  private worker?: Worker;
  private connection?: RedisClient;
  private publisher?: RedisClient;

  constructor(
    private readonly redisUrl: string,
    private readonly prefix: string,
  ) {}

  async start(): Promise<void> {
    this.connection = createRedisConnection(this.redisUrl, 'stand-in-ledger-worker');
    this.publisher = createProducerConnection(this.redisUrl, 'stand-in-ledger-replies');
    this.worker = new Worker(commandQueueName('ledger', 'mutations'), (job: Job) => this.answer(job), { connection: this.connection, prefix: this.prefix, concurrency: 8 });
    await this.worker.waitUntilReady();
  }

  async stop(): Promise<void> {
    await this.worker?.close();
    this.publisher?.disconnect();
    this.connection?.disconnect();
  }

  private async answer(job: Job): Promise<void> {
    const data = job.data as CommandJobData<CommandPayload<'ledger', 'accounts.open-primary'>>;
    if (job.name !== 'accounts.open-primary') throw new Error(`the stand-in ledger answers accounts.open-primary only, not ${job.name}`);
    this.requests.push({ payload: data.payload, commandId: data.meta.commandId, seen: await this.inspect(data.payload) });
    const opened = !this.opened.has(data.payload.accountId);
    this.opened.add(data.payload.accountId);
    const message: CommandReplyMessage = { jobId: String(job.id), reply: { ok: true, value: { opened } } };
    await this.publisher?.publish(data.meta.replyTo, JSON.stringify(message));
  }
}
