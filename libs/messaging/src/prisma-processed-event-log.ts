import { ProcessedEventLog } from '@pfs/contracts';
import { Prisma, type PrismaTransactionHost } from '@pfs/persistence';
import { quoteSchema } from './prisma-event-outbox';

/** The subscriber's inbox: an event id recorded in the same transaction as its effect. */
export class PrismaProcessedEventLog extends ProcessedEventLog {
  private readonly table: string;

  constructor(
    private readonly host: PrismaTransactionHost,
    schema: string,
  ) {
    super();
    this.table = `${quoteSchema(schema)}."processed_events"`;
  }

  async markProcessed(eventId: string): Promise<boolean> {
    const inserted = await this.host.client.$executeRaw`INSERT INTO ${Prisma.raw(this.table)} (event_id)
      VALUES (${eventId}) ON CONFLICT (event_id) DO NOTHING`;
    return inserted === 1;
  }
}
