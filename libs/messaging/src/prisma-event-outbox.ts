import { Clock, eventAggregateId, EventOutbox, newId, type AudienceArgument, type DomainEvent, type EventContract, type EventType, type ServiceName, type TraceCarrier } from '@pfs/contracts';
import { Prisma, type DeferredWrite, type PrismaTransactionHost } from '@pfs/persistence';
import { currentRequestId, currentTraceCarrier } from '@pfs/platform';

const SCHEMA_NAME = /^[a-z_]+$/;

export function quoteSchema(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name ${schema}`);
  return `"${schema}"`;
}

/**
 * Writes events into the service's own `outbox_events` table with the current unit of work, and
 * hands each to the relay once that unit commits.
 *
 * A unit's events are one deferred write (its last statement, see `DeferredWrite`): each gets the
 * next `sequence` of its aggregate from `aggregate_sequences`, bumped once per aggregate by the
 * unit's count in that statement. The bump locks the aggregate's row until commit, so a concurrent
 * writer of the same aggregate waits and takes the next numbers: within one aggregate, numbers
 * increase in commit order, and a rollback returns its numbers (no gaps). The lock is taken at the
 * end of the unit, so a use case whose event data depends on state it read earlier locks that
 * state itself (as set-verification-status locks the organization) to keep data and number in the
 * same order.
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
    const event = {
      id: newId('event'),
      type,
      source: this.source,
      occurredAt: this.clock.now().toISOString(),
      requestId: currentRequestId() ?? null,
      ...traceOf(currentTraceCarrier()),
      aggregateId: eventAggregateId(type, data),
      sequence: 0,
      data,
      ...(audience ? { audience } : {}),
    } as unknown as DomainEvent;
    const create = () => new OutboxWrite(this.table, this.sequences);
    const unitWrite = this.host.deferOnce(this, create);
    const write = unitWrite ?? create();
    write.events.push(event);
    // Outside a unit of work: a statement of its own, sent now (and afterCommit runs at once).
    if (!unitWrite) await this.host.defer(write);
    this.host.afterCommit(() => this.onCommitted(event));
    return event;
  }
}

/** The envelope's `trace` field, present only when the writer traces (an envelope without it is unchanged). */
function traceOf(carrier: TraceCarrier | undefined): { trace?: TraceCarrier } {
  return carrier ? { trace: carrier } : {};
}

/** A unit's events, written with their sequences in one write; `accept` numbers the events. */
class OutboxWrite implements DeferredWrite {
  readonly events: DomainEvent[] = [];

  constructor(
    private readonly table: string,
    private readonly sequences: string,
  ) {}

  ctes(prefix: string): Prisma.Sql[] {
    const p = Prisma.raw(prefix);
    // The n-th of k events of one aggregate takes its new last number − (k − n).
    const later = this.events.map((event, index) => this.events.slice(index + 1).filter((next) => next.aggregateId === event.aggregateId).length);
    const ids = this.events.map((event) => event.id);
    const types = this.events.map((event) => event.type);
    const aggregates = this.events.map((event) => event.aggregateId);
    const payloads = this.events.map((event) => JSON.stringify(event));
    const times = this.events.map((event) => event.occurredAt);
    return [
      // Aggregates in id order: two units bumping the same two take their locks in one order.
      Prisma.sql`${p}_seq AS (
        INSERT INTO ${Prisma.raw(this.sequences)} AS s (aggregate_id, last_sequence)
        SELECT aggregate_id, count(*) FROM unnest(${aggregates}::text[]) AS e(aggregate_id) GROUP BY aggregate_id ORDER BY aggregate_id
        ON CONFLICT (aggregate_id) DO UPDATE SET last_sequence = s.last_sequence + EXCLUDED.last_sequence
        RETURNING aggregate_id, last_sequence)`,
      Prisma.sql`${p}_out AS (
        INSERT INTO ${Prisma.raw(this.table)} (id, type, payload, created_at)
        SELECT e.id, e.type, jsonb_set(e.payload::jsonb, '{sequence}', to_jsonb(seq.last_sequence - e.later)), e.created_at::timestamptz
        FROM unnest(${ids}::text[], ${types}::text[], ${aggregates}::text[], ${payloads}::text[], ${times}::text[], ${later}::int[])
          AS e(id, type, aggregate_id, payload, created_at, later)
        JOIN ${p}_seq seq USING (aggregate_id)
        RETURNING id, (payload->>'sequence')::int AS sequence)`,
    ];
  }

  returning(prefix: string): Prisma.Sql {
    return Prisma.sql`(SELECT jsonb_object_agg(id, sequence) FROM ${Prisma.raw(prefix)}_out)`;
  }

  accept(value: unknown): void {
    const sequences = value as Record<string, number>;
    for (const event of this.events) (event as { sequence: number }).sequence = sequences[event.id] as number;
  }
}
