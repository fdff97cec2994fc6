import { Injectable } from '@nestjs/common';
import { Prisma, PrismaTransactionHost } from '@pfs/persistence';
import { WebhookMessageRepository } from '../../application/ports/webhook-message.repository';
import type { WebhookMessage } from '../../domain/webhook-message';

/** Messages in `webhook.messages`, one per event (event_id is unique). */
@Injectable()
export class PrismaWebhookMessageRepository extends WebhookMessageRepository {
  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  async insert(message: WebhookMessage): Promise<boolean> {
    return (await this.host.client.$executeRaw`${insertStatement(message)} ON CONFLICT (event_id) DO NOTHING`) === 1;
  }

  async record(message: WebhookMessage): Promise<void> {
    // No ON CONFLICT: a message of the event already there (event_id is unique) fails the whole statement.
    await this.host.write({ ctes: (prefix) => [Prisma.sql`${Prisma.raw(prefix)} AS (${insertStatement(message)})`] });
  }
}

function insertStatement(message: WebhookMessage): Prisma.Sql {
  const endpointIds = message.deliveries.map((delivery) => delivery.endpointId);
  return Prisma.sql`INSERT INTO "webhook"."messages" (id, event_id, event_type, organization_id, payload, endpoint_ids, created_at)
    VALUES (${message.id}, ${message.eventId}, ${message.eventType}, ${message.organizationId}, ${message.payload}, ${endpointIds}::text[], ${message.createdAt})`;
}
