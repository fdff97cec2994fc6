import type { CursorPosition } from '@pfs/contracts';
import { newestFirstPage } from '@pfs/test-doubles';
import {
  DeliveryRepository,
  type AttemptRecord,
  type ClaimedDelivery,
  type DeliveryRef,
  type DueDelivery,
  type EndpointOutcome,
  type NewMessage,
  type RecordedAttempt,
} from '../../../src/application/ports/delivery.repository';
import type { DeliverySchedule, DeliveryStatus } from '../../../src/domain/delivery';
import { InMemoryEndpointHealth } from './in-memory-endpoint-health';

interface MessageRow {
  id: string;
  eventType: string;
  payload: string;
  createdAt: Date;
}

/** A `delivery.deliveries` row: the schedule, who holds it, and when its message was created. */
export interface DeliveryRow extends DeliverySchedule {
  id: string;
  messageId: string;
  endpointId: string;
  organizationId: string;
  leasedUntil: Date | null;
  leasedBy: string | null;
  createdAt: Date;
}

/** The slack the claim gives a job that fires a little before its row's time (as the SQL adapter). */
const CLAIM_SLACK_MS = 1000;

/**
 * The DeliveryRepository contract over maps, for use-case unit tests: the same claim conditions,
 * lease rules and orders as PrismaDeliveryRepository. Rows are copied in and out, so a use case
 * never edits the store behind the repository's back.
 */
export class InMemoryDeliveryRepository extends DeliveryRepository {
  constructor(readonly health = new InMemoryEndpointHealth()) {
    super();
  }

  readonly messages = new Map<string, MessageRow>();
  readonly deliveries = new Map<string, DeliveryRow>();
  readonly attempts: AttemptRecord[] = [];

  async recordMessage(message: NewMessage, ids: string[]): Promise<DueDelivery[]> {
    if (this.messages.has(message.id)) throw new Error(`message ${message.id} is recorded already`);
    return this.insertMessage(message, ids);
  }

  async insertMessage(message: NewMessage, ids: string[]): Promise<DueDelivery[]> {
    if (this.messages.has(message.id)) return [];
    this.messages.set(message.id, { id: message.id, eventType: message.eventType, payload: message.payload, createdAt: message.createdAt });
    const due: DueDelivery[] = [];
    message.deliveries.forEach((delivery, index) => {
      // One delivery per (message, endpoint), as the unique index keeps it.
      if (this.findRow(message.id, delivery.endpointId)) return;
      const status: DeliveryStatus = delivery.dropped ? 'DROPPED' : 'PENDING';
      const row: DeliveryRow = {
        id: ids[index],
        messageId: message.id,
        endpointId: delivery.endpointId,
        organizationId: delivery.organizationId,
        status,
        attemptsMade: 0,
        retryIndex: 0,
        nextAttemptAt: delivery.dropped ? null : message.createdAt,
        leasedUntil: null,
        leasedBy: null,
        createdAt: message.createdAt,
      };
      this.deliveries.set(row.id, row);
      if (row.nextAttemptAt) due.push({ deliveryId: row.id, endpointId: row.endpointId, attemptsMade: 0, dueAt: row.nextAttemptAt });
    });
    return due;
  }

  async claim(deliveryId: string, attemptsMade: number, holder: string, leaseUntil: Date, now: Date): Promise<ClaimedDelivery | null> {
    const row = this.deliveries.get(deliveryId);
    if (
      !row ||
      row.status !== 'PENDING' ||
      row.attemptsMade !== attemptsMade ||
      row.nextAttemptAt === null ||
      row.nextAttemptAt.getTime() > now.getTime() + CLAIM_SLACK_MS ||
      !leaseFree(row, now, holder)
    ) {
      return null;
    }
    row.leasedUntil = leaseUntil;
    row.leasedBy = holder;
    const message = this.messages.get(row.messageId);
    if (!message) throw new Error(`delivery ${row.id} has no message ${row.messageId}`);
    return { ...scheduleOf(row), id: row.id, messageId: row.messageId, endpointId: row.endpointId, organizationId: row.organizationId, eventType: message.eventType, payload: message.payload };
  }

  async recordAttempt(attempt: AttemptRecord, next: DeliverySchedule, holder: string, endpoint: EndpointOutcome): Promise<RecordedAttempt> {
    const row = this.deliveries.get(attempt.deliveryId);
    if (!row) throw new Error(`delivery ${attempt.deliveryId} does not exist`);
    const count = row.attemptsMade + 1;
    if (row.leasedBy === holder) this.update(row.id, next);
    row.attemptsMade = count;
    this.attempts.push({ ...attempt, attempt: count });
    const health = endpoint.outcome === 'failure' ? await this.health.recordFailure(attempt.endpointId, endpoint.at) : await this.health.recordSuccess(attempt.endpointId);
    return { attempt: count, schedule: scheduleOf(row), health };
  }

  async drop(deliveryId: string): Promise<void> {
    const row = this.deliveries.get(deliveryId);
    if (row?.status !== 'PENDING') return;
    Object.assign(row, { status: 'DROPPED', nextAttemptAt: null, leasedUntil: null, leasedBy: null });
  }

  async due(now: Date, limit: number, offset: number): Promise<DueDelivery[]> {
    return [...this.deliveries.values()]
      .filter((row) => row.status === 'PENDING' && row.nextAttemptAt !== null && row.nextAttemptAt <= now && (row.leasedUntil === null || row.leasedUntil < now))
      .sort((a, b) => a.nextAttemptAt!.getTime() - b.nextAttemptAt!.getTime() || compareIds(a.id, b.id))
      .slice(offset, offset + limit)
      .map((row) => ({
        deliveryId: row.id,
        endpointId: row.endpointId,
        attemptsMade: row.attemptsMade,
        dueAt: row.nextAttemptAt!,
        // A lease still on the row has ended (its holder died): the retry gets a job of its own.
        ...(row.leasedUntil ? { abandonedLeaseUntil: row.leasedUntil } : {}),
      }));
  }

  async listAttempts(organizationId: string, endpointId: string, after: CursorPosition | null, limit: number): Promise<AttemptRecord[]> {
    const mine = this.attempts.filter((attempt) => attempt.organizationId === organizationId && attempt.endpointId === endpointId);
    // The log's keyset is (attemptedAt, id), the list order every Prisma adapter uses.
    return newestFirstPage(
      mine.map((attempt) => ({ attempt, createdAt: attempt.attemptedAt, id: attempt.id })),
      after,
      limit,
    ).map(({ attempt }) => ({ ...attempt }));
  }

  async findForUpdate(organizationId: string, endpointId: string, messageId: string): Promise<DeliveryRef | null> {
    const row = this.findRow(messageId, endpointId);
    return row && row.organizationId === organizationId ? refOf(row) : null;
  }

  async findFailedForUpdate(organizationId: string, endpointId: string, since: Date, until: Date | null): Promise<DeliveryRef[]> {
    return [...this.deliveries.values()]
      .filter(
        (row) =>
          row.organizationId === organizationId &&
          row.endpointId === endpointId &&
          (row.status === 'FAILED' || row.status === 'DROPPED') &&
          row.createdAt >= since &&
          (until === null || row.createdAt < until),
      )
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || compareIds(a.id, b.id))
      .map(refOf);
  }

  async reschedule(deliveryId: string, schedule: DeliverySchedule): Promise<void> {
    this.update(deliveryId, schedule);
  }

  /** A test's view of one delivery row (a copy). */
  row(deliveryId: string): DeliveryRow {
    const row = this.deliveries.get(deliveryId);
    if (!row) throw new Error(`no delivery ${deliveryId}`);
    return { ...row };
  }

  /** A test's hand on the store: sets a row's fields (a lease taken by another worker, a status). */
  patch(deliveryId: string, fields: Partial<Omit<DeliveryRow, 'id'>>): void {
    const row = this.deliveries.get(deliveryId);
    if (!row) throw new Error(`no delivery ${deliveryId}`);
    Object.assign(row, fields);
  }

  private findRow(messageId: string, endpointId: string): DeliveryRow | undefined {
    return [...this.deliveries.values()].find((row) => row.messageId === messageId && row.endpointId === endpointId);
  }

  /** The new schedule, and the lease freed (recordAttempt and reschedule both end the hold). */
  private update(deliveryId: string, schedule: DeliverySchedule): void {
    const row = this.deliveries.get(deliveryId);
    if (!row) return;
    Object.assign(row, scheduleOf(schedule), { leasedUntil: null, leasedBy: null });
  }
}

function leaseFree(row: DeliveryRow, now: Date, holder: string): boolean {
  return row.leasedUntil === null || row.leasedUntil < now || row.leasedBy === holder;
}

function scheduleOf(schedule: DeliverySchedule): DeliverySchedule {
  return { status: schedule.status, attemptsMade: schedule.attemptsMade, retryIndex: schedule.retryIndex, nextAttemptAt: schedule.nextAttemptAt };
}

function refOf(row: DeliveryRow): DeliveryRef {
  return { id: row.id, messageId: row.messageId, endpointId: row.endpointId, schedule: scheduleOf(row) };
}

/** Ties on time are broken by id, as the SQL adapter orders them. */
function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
