import { ProcessedEventLog, type DomainEvent } from '@pfs/contracts';
import { Prisma, type PrismaTransactionHost } from '@pfs/persistence';
import { quoteSchema } from './prisma-event-outbox';

/**
 * The subscriber's inbox: an event id recorded in the same transaction as its effect, and for
 * ordered handlers the newest sequence applied per publisher, aggregate and type.
 */
export class PrismaProcessedEventLog extends ProcessedEventLog {
  private readonly table: string;
  private readonly applied: string;

  constructor(
    private readonly host: PrismaTransactionHost,
    schema: string,
  ) {
    super();
    this.table = `${quoteSchema(schema)}."processed_events"`;
    this.applied = `${quoteSchema(schema)}."applied_sequences"`;
  }

  async markProcessed(eventId: string): Promise<boolean> {
    const inserted = await this.host.client.$executeRaw`INSERT INTO ${Prisma.raw(this.table)} (event_id)
      VALUES (${eventId}) ON CONFLICT (event_id) DO NOTHING`;
    return inserted === 1;
  }

  async markAllProcessed(eventIds: readonly string[]): Promise<ReadonlySet<string>> {
    const inserted = await this.host.client.$queryRaw<Array<{ event_id: string }>>`INSERT INTO ${Prisma.raw(this.table)} (event_id)
      SELECT unnest(${[...eventIds]}::text[]) ON CONFLICT (event_id) DO NOTHING RETURNING event_id`;
    return new Set(inserted.map((row) => row.event_id));
  }

  async claimAll(eventIds: readonly string[]): Promise<void> {
    // No ON CONFLICT: an id recorded already (or twice here) makes the whole statement fail.
    await this.host.write({
      ctes: (prefix) => [Prisma.sql`${Prisma.raw(prefix)} AS (INSERT INTO ${Prisma.raw(this.table)} (event_id) SELECT unnest(${[...eventIds]}::text[]))`],
    });
  }

  async advanceSequence(event: Pick<DomainEvent, 'source' | 'aggregateId' | 'type' | 'sequence'>): Promise<boolean> {
    if (event.sequence === 0) {
      // Written before sequences existed: older than any numbered event, and not comparable with
      // another of its kind, so applied unless a numbered one was applied already.
      const newer = await this.host.client.$queryRaw<unknown[]>`SELECT 1 FROM ${Prisma.raw(this.applied)}
        WHERE source = ${event.source} AND aggregate_id = ${event.aggregateId} AND event_type = ${event.type}`;
      return newer.length === 0;
    }
    // The conflicting row stays locked until commit, so concurrent deliveries of one aggregate
    // compare against each other's committed outcome, never against a stale read.
    const advanced = await this.host.client.$executeRaw`INSERT INTO ${Prisma.raw(this.applied)} AS a
        (source, aggregate_id, event_type, last_sequence)
      VALUES (${event.source}, ${event.aggregateId}, ${event.type}, ${event.sequence})
      ON CONFLICT (source, aggregate_id, event_type)
      DO UPDATE SET last_sequence = EXCLUDED.last_sequence, applied_at = now()
      WHERE a.last_sequence < EXCLUDED.last_sequence`;
    return advanced === 1;
  }
}
