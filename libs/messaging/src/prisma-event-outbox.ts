import { Clock, eventAggregateId, EventOutbox, newId, type AudienceArgument, type DomainEvent, type EventContract, type EventType, type ServiceName } from '@pfs/contracts';
import { Prisma, type PrismaTransactionHost } from '@pfs/persistence';
import { currentRequestId } from '@pfs/platform';

const SCHEMA_NAME = /^[a-z_]+$/;

export function quoteSchema(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name ${schema}`);
  return `"${schema}"`;
}

/**
 * Writes events into the service's own `outbox_events` table inside the current transaction,
 * and hands each to the relay once that transaction commits.
 *
 * Each event gets the next `sequence` of its aggregate from `aggregate_sequences`, bumped in the
 * same transaction. The bump locks the aggregate's row until commit, so a concurrent writer of
 * the same aggregate waits and takes the next number: within one aggregate, numbers increase in
 * commit order, and a rollback returns its number (no gaps). The lock is taken at the append, so
 * a use case whose event data depends on state it read earlier locks that state itself (as
 * set-verification-status locks the organization) to keep data and number in the same order.
 */
export class PrismaEventOutbox extends EventOutbox {
  private readonly table: string;
  private readonly sequences: string;

  constructor(
    private readonly host: PrismaTransactionHost,
    private readonly source: ServiceName,
    schema: string,
    private readonly clock: Clock,
    private readonly onCommitted: (event: DomainEvent) => void = () => undefined,
  ) {
    super();
    this.table = `${quoteSchema(schema)}."outbox_events"`;
    this.sequences = `${quoteSchema(schema)}."aggregate_sequences"`;
  }

  async append<T extends EventType>(type: T, data: EventContract[T], ...[audience]: AudienceArgument<T>): Promise<DomainEvent> {
    const now = this.clock.now();
    const aggregateId = eventAggregateId(type, data);
    const event = {
      id: newId('event'),
      type,
      source: this.source,
      occurredAt: now.toISOString(),
      requestId: currentRequestId() ?? null,
      aggregateId,
      sequence: 0,
      data,
      ...(audience ? { audience } : {}),
    } as unknown as DomainEvent;
    // One round trip: the aggregate's next number, and the row carrying it in its payload.
    const [{ sequence }] = await this.host.client.$queryRaw<Array<{ sequence: number }>>`
      WITH next AS (
        INSERT INTO ${Prisma.raw(this.sequences)} AS s (aggregate_id, last_sequence) VALUES (${aggregateId}, 1)
        ON CONFLICT (aggregate_id) DO UPDATE SET last_sequence = s.last_sequence + 1
        RETURNING last_sequence
      )
      INSERT INTO ${Prisma.raw(this.table)} (id, type, payload, created_at)
      SELECT ${event.id}, ${type}, jsonb_set(${JSON.stringify(event)}::jsonb, '{sequence}', to_jsonb(next.last_sequence)), ${now}
      FROM next
      RETURNING (payload->>'sequence')::int AS sequence`;
    (event as { sequence: number }).sequence = sequence;
    this.host.afterCommit(() => this.onCommitted(event));
    return event;
  }
}
