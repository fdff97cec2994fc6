import { Injectable } from '@nestjs/common';
import type { CursorPosition } from '@pfs/contracts';
import { Prisma, PrismaTransactionHost } from '@pfs/persistence';
import { callBatcher } from '@pfs/platform';
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

interface ClaimRequest {
  deliveryId: string;
  attemptsMade: number;
  holder: string;
  leaseUntil: Date;
  now: Date;
}

interface RecordRequest {
  attempt: AttemptRecord;
  next: DeliverySchedule;
  holder: string;
  endpoint: EndpointOutcome;
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

function unwrap<T>(result: T | Error | undefined): T {
  if (result === undefined) throw new Error('no result for the request');
  if (result instanceof Error) throw result;
  return result;
}

/**
 * Messages, deliveries, attempts and each endpoint's run of failures in the `delivery` schema, in
 * raw SQL: every attempt costs a claim and a record, and these are the hot path of the worker.
 */
@Injectable()
export class PrismaDeliveryRepository extends DeliveryRepository {
  // Attempts run by the dozen at once and each pays a claim and a record: under load they share
  // statements, two of each kind at a time, which leaves the pool's other connections to the
  // messages coming in and the sweeper.
  private readonly claims = callBatcher<ClaimRequest, ClaimedDelivery | null>((requests) => this.claimBatch(requests), { maxInFlight: 2, maxBatchSize: 64 });
  private readonly records = callBatcher<RecordRequest, RecordedAttempt>((requests) => this.recordBatch(requests), { maxInFlight: 2, maxBatchSize: 64 });

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
    const request: ClaimRequest = { deliveryId, attemptsMade, holder, leaseUntil, now };
    if (this.host.inTransaction) return (await this.claimRows([request]))[0] ?? null;
    return this.claims(request);
  }

  async recordAttempt(attempt: AttemptRecord, next: DeliverySchedule, holder: string, endpoint: EndpointOutcome): Promise<RecordedAttempt> {
    const request: RecordRequest = { attempt, next, holder, endpoint };
    if (this.host.inTransaction) return unwrap((await this.recordRows([request]))[0]);
    return this.records(request);
  }

  /** The claims of a batch in one statement; alone again, one by one, if that statement fails. */
  private async claimBatch(requests: readonly ClaimRequest[]): Promise<Array<ClaimedDelivery | null | Error>> {
    try {
      return await this.claimRows(requests);
    } catch (error) {
      if (requests.length === 1) throw error;
      return Promise.all(requests.map((request) => this.claimRows([request]).then((rows) => rows[0] ?? null, (failure: unknown) => asError(failure))));
    }
  }

  /**
   * Each request's delivery when its claim took it: only if it is PENDING, due, still at its
   * `attemptsMade`, and not leased to another holder. Two requests for one delivery in one
   * statement update its row once: the one whose holder the row names after it has it.
   */
  private async claimRows(requests: readonly ClaimRequest[]): Promise<Array<ClaimedDelivery | null>> {
    // A job may fire a little before its row's time (clocks of Redis and this host): 1 s of slack.
    const rows = await this.host.query<ScheduleRow & { id: string; leased_by: string; message_id: string; endpoint_id: string; organization_id: string; event_type: string; payload: string }>(Prisma.sql`
      WITH input AS (
        SELECT * FROM unnest(${requests.map((r) => r.deliveryId)}::text[], ${requests.map((r) => r.attemptsMade)}::int[], ${requests.map((r) => r.holder)}::text[],
                             ${requests.map((r) => r.leaseUntil)}::timestamptz[], ${requests.map((r) => r.now)}::timestamptz[])
          AS i(id, attempts_made, holder, lease_until, now)
      ), claimed AS (
        UPDATE "delivery"."deliveries" d
        SET leased_until = i.lease_until, leased_by = i.holder, updated_at = i.now
        FROM input i
        WHERE d.id = i.id AND d.status = 'PENDING' AND d.attempts_made = i.attempts_made
          AND d.next_attempt_at <= i.now + interval '1 second'
          AND (d.leased_until IS NULL OR d.leased_until < i.now OR d.leased_by = i.holder)
        RETURNING d.id, d.leased_by, d.message_id, d.endpoint_id, d.organization_id, d.status, d.attempts_made, d.retry_index, d.next_attempt_at
      )
      SELECT c.*, m.event_type, m.payload FROM claimed c JOIN "delivery"."messages" m ON m.id = c.message_id`);
    const taken = new Map(rows.map((row) => [`${row.id} ${row.leased_by}`, row]));
    return requests.map((request) => {
      const row = taken.get(`${request.deliveryId} ${request.holder}`);
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
    });
  }

  /**
   * The records of a batch in as few statements as they allow: one, unless two attempts of one
   * delivery, or a success and a failure of one endpoint, came together (one statement writes a
   * row once); those go in the next statement, in order. Alone again if a statement fails.
   */
  private async recordBatch(requests: readonly RecordRequest[]): Promise<Array<RecordedAttempt | Error>> {
    const results = new Array<RecordedAttempt | Error>(requests.length);
    let rest = requests.map((request, index) => ({ request, index }));
    while (rest.length) {
      const round: typeof rest = [];
      const later: typeof rest = [];
      const deliveries = new Set<string>();
      const outcomes = new Map<string, EndpointOutcome['outcome']>();
      for (const item of rest) {
        const { attempt, endpoint } = item.request;
        const outcome = outcomes.get(attempt.endpointId);
        if (deliveries.has(attempt.deliveryId) || (outcome && outcome !== endpoint.outcome)) {
          later.push(item);
          continue;
        }
        deliveries.add(attempt.deliveryId);
        outcomes.set(attempt.endpointId, endpoint.outcome);
        round.push(item);
      }
      try {
        const recorded = await this.recordRows(round.map((item) => item.request));
        round.forEach((item, position) => (results[item.index] = recorded[position] as RecordedAttempt | Error));
      } catch (error) {
        if (round.length === 1) results[(round[0] as (typeof round)[number]).index] = asError(error);
        else {
          const alone = await Promise.all(round.map((item) => this.recordRows([item.request]).then((rows) => rows[0] as RecordedAttempt | Error, (failure: unknown) => asError(failure))));
          round.forEach((item, position) => (results[item.index] = alone[position] as RecordedAttempt | Error));
        }
      }
      rest = later;
    }
    return results;
  }

  /**
   * One statement for attempts of distinct deliveries: the row lock orders overlapping attempts,
   * each attempt row takes the count its update produced, and each endpoint's run of failures
   * moves with them (its failures counted in one upsert, so concurrent statements add up; a
   * success writes only a run that is failing). Answers, per attempt, its number, the schedule the
   * row has now and the run after the statement, or an Error when the delivery does not exist.
   */
  private async recordRows(requests: readonly RecordRequest[]): Promise<Array<RecordedAttempt | Error>> {
    const column = <T>(pick: (request: RecordRequest) => T) => requests.map(pick);
    const rows = await this.host.query<ScheduleRow & { id: string; consecutive_failures: number | null; failing_since: Date | null }>(Prisma.sql`
      WITH input AS (
        SELECT * FROM unnest(
          ${column((r) => r.attempt.id)}::text[], ${column((r) => r.attempt.deliveryId)}::text[], ${column((r) => r.attempt.messageId)}::text[],
          ${column((r) => r.attempt.endpointId)}::text[], ${column((r) => r.attempt.organizationId)}::text[], ${column((r) => r.attempt.eventType)}::text[],
          ${column((r) => r.attempt.attemptedAt)}::timestamptz[], ${column((r) => r.attempt.statusCode)}::int[], ${column((r) => r.attempt.durationMs)}::int[],
          ${column((r) => r.attempt.error)}::text[], ${column((r) => r.attempt.response)}::text[], ${column((r) => r.holder)}::text[],
          ${column((r) => r.next.status)}::text[], ${column((r) => r.next.retryIndex)}::int[], ${column((r) => r.next.nextAttemptAt)}::timestamptz[],
          ${column((r) => r.endpoint.outcome === 'failure')}::boolean[], ${column((r) => r.endpoint.at)}::timestamptz[])
          AS i(attempt_id, delivery_id, message_id, endpoint_id, organization_id, event_type, attempted_at, status_code, duration_ms, error, response,
               holder, next_status, next_retry_index, next_attempt_at, failed, outcome_at)
      ), updated AS (
        UPDATE "delivery"."deliveries" d
        SET attempts_made = d.attempts_made + 1,
            status = CASE WHEN d.leased_by = i.holder THEN i.next_status ELSE d.status END,
            retry_index = CASE WHEN d.leased_by = i.holder THEN i.next_retry_index ELSE d.retry_index END,
            next_attempt_at = CASE WHEN d.leased_by = i.holder THEN i.next_attempt_at ELSE d.next_attempt_at END,
            leased_until = CASE WHEN d.leased_by = i.holder THEN NULL ELSE d.leased_until END,
            leased_by = CASE WHEN d.leased_by = i.holder THEN NULL ELSE d.leased_by END,
            updated_at = now()
        FROM input i
        WHERE d.id = i.delivery_id
        RETURNING d.id, d.status, d.attempts_made, d.retry_index, d.next_attempt_at
      ), recorded AS (
        INSERT INTO "delivery"."attempts" (id, delivery_id, message_id, endpoint_id, organization_id, event_type, attempt, created_at, status_code, duration_ms, error, response)
        SELECT i.attempt_id, i.delivery_id, i.message_id, i.endpoint_id, i.organization_id, i.event_type,
               u.attempts_made, i.attempted_at, i.status_code, i.duration_ms, i.error, i.response
        FROM updated u JOIN input i ON i.delivery_id = u.id
      ), failure AS (
        INSERT INTO "delivery"."endpoint_health" AS h (endpoint_id, consecutive_failures, failing_since, updated_at)
        SELECT i.endpoint_id, count(*), min(i.outcome_at), max(i.outcome_at)
        FROM updated u JOIN input i ON i.delivery_id = u.id WHERE i.failed GROUP BY i.endpoint_id
        ON CONFLICT (endpoint_id) DO UPDATE
        SET consecutive_failures = h.consecutive_failures + EXCLUDED.consecutive_failures, failing_since = COALESCE(h.failing_since, EXCLUDED.failing_since), updated_at = EXCLUDED.updated_at
        RETURNING endpoint_id, consecutive_failures, failing_since
      ), success AS (
        UPDATE "delivery"."endpoint_health" SET consecutive_failures = 0, failing_since = NULL, updated_at = now()
        WHERE consecutive_failures > 0 AND endpoint_id IN (SELECT i.endpoint_id FROM updated u JOIN input i ON i.delivery_id = u.id WHERE NOT i.failed)
      )
      SELECT u.id, u.status, u.attempts_made, u.retry_index, u.next_attempt_at, f.consecutive_failures, f.failing_since
      FROM updated u JOIN input i ON i.delivery_id = u.id LEFT JOIN failure f ON f.endpoint_id = i.endpoint_id AND i.failed`);
    const byDelivery = new Map(rows.map((row) => [row.id, row]));
    return requests.map((request) => {
      const row = byDelivery.get(request.attempt.deliveryId);
      if (!row) return new Error(`delivery ${request.attempt.deliveryId} does not exist`);
      return {
        attempt: row.attempts_made,
        schedule: schedule(row),
        health: { consecutiveFailures: row.consecutive_failures ?? 0, failingSince: row.failing_since },
      };
    });
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
