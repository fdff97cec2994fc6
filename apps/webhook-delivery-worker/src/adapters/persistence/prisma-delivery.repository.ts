import { Injectable } from '@nestjs/common';
import type { CursorPosition } from '@pfs/contracts';
import { Prisma, PrismaTransactionHost } from '@pfs/persistence';
import type {
  AttemptRecord,
  ClaimedDelivery,
  DeliveryRef,
  DueDelivery,
  EndpointOutcome,
  NewMessage,
  RecordedAttempt,
} from '../../application/ports/delivery.repository';
import { DeliveryRepository } from '../../application/ports/delivery.repository';
import type { DeliverySchedule, DeliveryStatus } from '../../domain/delivery';

interface ScheduleRow {
  status: DeliveryStatus;
  attempts_made: number;
  retry_index: number;
  next_attempt_at: Date | null;
}

const schedule = (row: ScheduleRow): DeliverySchedule => ({
  status: row.status,
  attemptsMade: row.attempts_made,
  retryIndex: row.retry_index,
  nextAttemptAt: row.next_attempt_at,
});

/**
 * Messages, deliveries, attempts and each endpoint's run of failures in the `delivery` schema, in
 * raw SQL: every attempt costs a claim and a record, and these are the hot path of the worker.
 */
@Injectable()
export class PrismaDeliveryRepository extends DeliveryRepository {
  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  async insertMessage(message: NewMessage, ids: string[]): Promise<DueDelivery[]> {
    const inserted = await this.host.client.$executeRaw`${messageInsert(message)} ON CONFLICT (id) DO NOTHING`;
    if (inserted !== 1) return [];
    const rows = await this.host.client.$queryRaw<Array<{ id: string; endpoint_id: string; next_attempt_at: Date | null }>>`
      ${deliveriesInsert(message, ids)} ON CONFLICT (message_id, endpoint_id) DO NOTHING
      RETURNING id, endpoint_id, next_attempt_at`;
    return rows.flatMap((row) => (row.next_attempt_at ? [{ deliveryId: row.id, endpointId: row.endpoint_id, attemptsMade: 0, dueAt: row.next_attempt_at }] : []));
  }

  async recordMessage(message: NewMessage, ids: string[]): Promise<DueDelivery[]> {
    // No ON CONFLICT: a message recorded already fails the whole statement.
    await this.host.write({
      ctes: (prefix) => {
        const p = Prisma.raw(prefix);
        return [Prisma.sql`${p}_message AS (${messageInsert(message)})`, Prisma.sql`${p}_deliveries AS (${deliveriesInsert(message, ids)})`];
      },
    });
    return message.deliveries.flatMap((delivery, index) =>
      delivery.dropped ? [] : [{ deliveryId: ids[index] as string, endpointId: delivery.endpointId, attemptsMade: 0, dueAt: message.createdAt }],
    );
  }

  async claim(deliveryId: string, attemptsMade: number, holder: string, leaseUntil: Date, now: Date): Promise<ClaimedDelivery | null> {
    // A job may fire a little before its row's time (clocks of Redis and this host): 1 s of slack.
    const rows = await this.host.query<ScheduleRow & { id: string; message_id: string; endpoint_id: string; organization_id: string; event_type: string; payload: string }>(Prisma.sql`
      WITH claimed AS (
        UPDATE "delivery"."deliveries"
        SET leased_until = ${leaseUntil}, leased_by = ${holder}, updated_at = ${now}
        WHERE id = ${deliveryId} AND status = 'PENDING' AND attempts_made = ${attemptsMade}
          AND next_attempt_at <= ${new Date(now.getTime() + 1000)}
          AND (leased_until IS NULL OR leased_until < ${now} OR leased_by = ${holder})
        RETURNING id, message_id, endpoint_id, organization_id, status, attempts_made, retry_index, next_attempt_at
      )
      SELECT c.*, m.event_type, m.payload FROM claimed c JOIN "delivery"."messages" m ON m.id = c.message_id`);
    const row = rows[0];
    if (!row) return null;
    return {
      ...schedule(row),
      id: row.id,
      messageId: row.message_id,
      endpointId: row.endpoint_id,
      organizationId: row.organization_id,
      eventType: row.event_type,
      payload: row.payload,
    };
  }

  async recordAttempt(attempt: AttemptRecord, next: DeliverySchedule, holder: string, endpoint: EndpointOutcome): Promise<RecordedAttempt> {
    // One statement: the row lock orders overlapping attempts, the attempt row takes the count
    // the update produced, and the endpoint's run of failures moves with it (a failure counts in
    // one upsert, so concurrent attempts add up; a success writes only a run that is failing).
    const failed = endpoint.outcome === 'failure';
    const rows = await this.host.query<ScheduleRow & { consecutive_failures: number | null; failing_since: Date | null }>(Prisma.sql`
      WITH updated AS (
        UPDATE "delivery"."deliveries" d
        SET attempts_made = d.attempts_made + 1,
            status = CASE WHEN d.leased_by = ${holder} THEN ${next.status} ELSE d.status END,
            retry_index = CASE WHEN d.leased_by = ${holder} THEN ${next.retryIndex}::int ELSE d.retry_index END,
            next_attempt_at = CASE WHEN d.leased_by = ${holder} THEN ${next.nextAttemptAt}::timestamptz ELSE d.next_attempt_at END,
            leased_until = CASE WHEN d.leased_by = ${holder} THEN NULL ELSE d.leased_until END,
            leased_by = CASE WHEN d.leased_by = ${holder} THEN NULL ELSE d.leased_by END,
            updated_at = now()
        WHERE d.id = ${attempt.deliveryId}
        RETURNING d.status, d.attempts_made, d.retry_index, d.next_attempt_at
      ), recorded AS (
        INSERT INTO "delivery"."attempts" (id, delivery_id, message_id, endpoint_id, organization_id, event_type, attempt, created_at, status_code, duration_ms, error, response)
        SELECT ${attempt.id}, ${attempt.deliveryId}, ${attempt.messageId}, ${attempt.endpointId}, ${attempt.organizationId}, ${attempt.eventType},
               updated.attempts_made, ${attempt.attemptedAt}, ${attempt.statusCode}::int, ${attempt.durationMs}::int, ${attempt.error}, ${attempt.response}
        FROM updated
      ), failure AS (
        INSERT INTO "delivery"."endpoint_health" AS h (endpoint_id, consecutive_failures, failing_since, updated_at)
        SELECT ${attempt.endpointId}, 1, ${endpoint.at}::timestamptz, ${endpoint.at}::timestamptz FROM updated WHERE ${failed}::boolean
        ON CONFLICT (endpoint_id) DO UPDATE
        SET consecutive_failures = h.consecutive_failures + 1, failing_since = COALESCE(h.failing_since, EXCLUDED.failing_since), updated_at = EXCLUDED.updated_at
        RETURNING consecutive_failures, failing_since
      ), success AS (
        UPDATE "delivery"."endpoint_health" SET consecutive_failures = 0, failing_since = NULL, updated_at = now()
        WHERE endpoint_id = ${attempt.endpointId} AND consecutive_failures > 0 AND NOT ${failed}::boolean AND EXISTS (SELECT 1 FROM updated)
      )
      SELECT u.status, u.attempts_made, u.retry_index, u.next_attempt_at, f.consecutive_failures, f.failing_since
      FROM updated u LEFT JOIN failure f ON true`);
    const row = rows[0];
    if (!row) throw new Error(`delivery ${attempt.deliveryId} does not exist`);
    return {
      attempt: row.attempts_made,
      schedule: schedule(row),
      health: { consecutiveFailures: row.consecutive_failures ?? 0, failingSince: row.failing_since },
    };
  }

  async drop(deliveryId: string): Promise<void> {
    await this.host.client.$executeRaw`
      UPDATE "delivery"."deliveries" SET status = 'DROPPED', next_attempt_at = NULL, leased_until = NULL, leased_by = NULL, updated_at = now()
      WHERE id = ${deliveryId} AND status = 'PENDING'`;
  }

  async due(now: Date, limit: number, offset: number): Promise<DueDelivery[]> {
    const rows = await this.host.client.$queryRaw<Array<{ id: string; endpoint_id: string; attempts_made: number; next_attempt_at: Date; leased_until: Date | null }>>`
      SELECT id, endpoint_id, attempts_made, next_attempt_at, leased_until FROM "delivery"."deliveries"
      WHERE status = 'PENDING' AND next_attempt_at <= ${now} AND (leased_until IS NULL OR leased_until < ${now})
      ORDER BY next_attempt_at, id LIMIT ${limit} OFFSET ${offset}`;
    return rows.map((row) => ({
      deliveryId: row.id,
      endpointId: row.endpoint_id,
      attemptsMade: row.attempts_made,
      dueAt: row.next_attempt_at,
      ...(row.leased_until ? { abandonedLeaseUntil: row.leased_until } : {}),
    }));
  }

  async listAttempts(organizationId: string, endpointId: string, after: CursorPosition | null, limit: number): Promise<AttemptRecord[]> {
    const position = after
      ? Prisma.sql`AND (created_at, id) < (${new Date(after.createdAt)}, ${after.id})`
      : Prisma.empty;
    const rows = await this.host.client.$queryRaw<
      Array<{ id: string; delivery_id: string; message_id: string; endpoint_id: string; organization_id: string; event_type: string; attempt: number; created_at: Date; status_code: number | null; duration_ms: number; error: string | null; response: string | null }>
    >`
      SELECT id, delivery_id, message_id, endpoint_id, organization_id, event_type, attempt, created_at, status_code, duration_ms, error, response
      FROM "delivery"."attempts"
      WHERE endpoint_id = ${endpointId} AND organization_id = ${organizationId} ${position}
      ORDER BY created_at DESC, id DESC LIMIT ${limit}`;
    return rows.map((row) => ({
      id: row.id,
      deliveryId: row.delivery_id,
      messageId: row.message_id,
      endpointId: row.endpoint_id,
      organizationId: row.organization_id,
      eventType: row.event_type,
      attempt: row.attempt,
      attemptedAt: row.created_at,
      statusCode: row.status_code,
      durationMs: row.duration_ms,
      error: row.error,
      response: row.response,
    }));
  }

  async findForUpdate(organizationId: string, endpointId: string, messageId: string): Promise<DeliveryRef | null> {
    const rows = await this.host.client.$queryRaw<Array<ScheduleRow & { id: string; message_id: string; endpoint_id: string }>>`
      SELECT id, message_id, endpoint_id, status, attempts_made, retry_index, next_attempt_at FROM "delivery"."deliveries"
      WHERE message_id = ${messageId} AND endpoint_id = ${endpointId} AND organization_id = ${organizationId}
      FOR UPDATE`;
    const row = rows[0];
    return row ? { id: row.id, messageId: row.message_id, endpointId: row.endpoint_id, schedule: schedule(row) } : null;
  }

  async findFailedForUpdate(organizationId: string, endpointId: string, since: Date, until: Date | null): Promise<DeliveryRef[]> {
    const before = until ? Prisma.sql`AND created_at < ${until}` : Prisma.empty;
    const rows = await this.host.client.$queryRaw<Array<ScheduleRow & { id: string; message_id: string; endpoint_id: string }>>`
      SELECT id, message_id, endpoint_id, status, attempts_made, retry_index, next_attempt_at FROM "delivery"."deliveries"
      WHERE endpoint_id = ${endpointId} AND organization_id = ${organizationId} AND status IN ('FAILED', 'DROPPED')
        AND created_at >= ${since} ${before}
      ORDER BY created_at, id
      FOR UPDATE`;
    return rows.map((row) => ({ id: row.id, messageId: row.message_id, endpointId: row.endpoint_id, schedule: schedule(row) }));
  }

  async reschedule(deliveryId: string, next: DeliverySchedule): Promise<void> {
    await this.host.client.$executeRaw`
      UPDATE "delivery"."deliveries"
      SET status = ${next.status}, attempts_made = ${next.attemptsMade}, retry_index = ${next.retryIndex}, next_attempt_at = ${next.nextAttemptAt},
          leased_until = NULL, leased_by = NULL, updated_at = now()
      WHERE id = ${deliveryId}`;
  }
}

function messageInsert(message: NewMessage): Prisma.Sql {
  return Prisma.sql`INSERT INTO "delivery"."messages" (id, event_type, payload, created_at)
    VALUES (${message.id}, ${message.eventType}, ${message.payload}, ${message.createdAt})`;
}

/** One delivery per endpoint: PENDING and due at the message's creation, or DROPPED (its endpoint disabled at the fan-out). */
function deliveriesInsert(message: NewMessage, ids: string[]): Prisma.Sql {
  const endpointIds = message.deliveries.map((delivery) => delivery.endpointId);
  const organizationIds = message.deliveries.map((delivery) => delivery.organizationId);
  const dropped = message.deliveries.map((delivery) => delivery.dropped);
  return Prisma.sql`INSERT INTO "delivery"."deliveries" (id, message_id, endpoint_id, organization_id, status, next_attempt_at, created_at)
    SELECT d.id, ${message.id}, d.endpoint_id, d.organization_id,
           CASE WHEN d.dropped THEN 'DROPPED' ELSE 'PENDING' END,
           CASE WHEN d.dropped THEN NULL ELSE ${message.createdAt}::timestamptz END, ${message.createdAt}
    FROM unnest(${ids}::text[], ${endpointIds}::text[], ${organizationIds}::text[], ${dropped}::boolean[]) AS d(id, endpoint_id, organization_id, dropped)`;
}
