import { Injectable } from '@nestjs/common';
import { Prisma, PrismaTransactionHost, type DeferredWrite } from '@pfs/persistence';
import { WebhookMessageRepository } from '../../application/ports/webhook-message.repository';
import type { WebhookMessage } from '../../domain/webhook-message';

/** Messages in `webhook.messages`, one per event (event_id is unique). */
@Injectable()
export class PrismaWebhookMessageRepository extends WebhookMessageRepository {
  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  async insert(message: WebhookMessage): Promise<boolean> {
    const inserted = await this.host.client.$executeRaw`${insertStatement(message)}`;
    return inserted === 1;
  }

  async record(message: WebhookMessage): Promise<void> {
    const records = this.host.deferOnce(this, () => new MessageRecords());
    if (records) records.messages.push(message);
    else await this.insert(message);
  }
}

function insertStatement(message: WebhookMessage): Prisma.Sql {
  const endpointIds = message.deliveries.map((delivery) => delivery.endpointId);
  return Prisma.sql`INSERT INTO "webhook"."messages" (id, event_id, event_type, organization_id, payload, endpoint_ids, created_at)
    VALUES (${message.id}, ${message.eventId}, ${message.eventType}, ${message.organizationId}, ${message.payload}, ${endpointIds}::text[], ${message.createdAt})
    ON CONFLICT (event_id) DO NOTHING`;
}

/** A unit's messages without deliveries, as one multi-row write of its last statement. */
class MessageRecords implements DeferredWrite {
  readonly messages: WebhookMessage[] = [];

  ctes(prefix: string): Prisma.Sql[] {
    const column = <T>(pick: (message: WebhookMessage) => T) => this.messages.map(pick);
    return [
      Prisma.sql`${Prisma.raw(prefix)} AS (INSERT INTO "webhook"."messages" (id, event_id, event_type, organization_id, payload, endpoint_ids, created_at)
        SELECT id, event_id, event_type, organization_id, payload, '{}'::text[], created_at
        FROM unnest(${column((m) => m.id)}::text[], ${column((m) => m.eventId)}::text[], ${column((m) => m.eventType)}::text[],
          ${column((m) => m.organizationId)}::text[], ${column((m) => m.payload)}::text[], ${column((m) => m.createdAt.toISOString())}::timestamptz[])
          AS m(id, event_id, event_type, organization_id, payload, created_at)
        ON CONFLICT (event_id) DO NOTHING)`,
    ];
  }
}
