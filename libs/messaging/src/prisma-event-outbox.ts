import { Clock, EventOutbox, newId, type AudienceArgument, type DomainEvent, type EventContract, type EventType, type ServiceName } from '@pfs/contracts';
import { Prisma, type PrismaTransactionHost } from '@pfs/persistence';
import { currentRequestId } from '@pfs/platform';

const SCHEMA_NAME = /^[a-z_]+$/;

export function quoteSchema(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name ${schema}`);
  return `"${schema}"`;
}

/**
 * Writes events into the service's own `outbox_events` table inside the current transaction,
 * and nudges the relay once that transaction commits.
 */
export class PrismaEventOutbox extends EventOutbox {
  private readonly table: string;

  constructor(
    private readonly host: PrismaTransactionHost,
    private readonly source: ServiceName,
    schema: string,
    private readonly clock: Clock,
    private readonly onCommitted: () => void = () => undefined,
  ) {
    super();
    this.table = `${quoteSchema(schema)}."outbox_events"`;
  }

  async append<T extends EventType>(type: T, data: EventContract[T], ...[audience]: AudienceArgument<T>): Promise<DomainEvent> {
    const now = this.clock.now();
    const event = {
      id: newId('event'),
      type,
      source: this.source,
      occurredAt: now.toISOString(),
      requestId: currentRequestId() ?? null,
      data,
      ...(audience ? { audience } : {}),
    } as unknown as DomainEvent;
    await this.host.client.$executeRaw`INSERT INTO ${Prisma.raw(this.table)} (id, type, payload, created_at)
      VALUES (${event.id}, ${type}, ${JSON.stringify(event)}::jsonb, ${now})`;
    this.host.afterCommit(this.onCommitted);
    return event;
  }
}
