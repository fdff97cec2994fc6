import type { AudienceArgument, DomainEvent, EventContract, EventType } from './events';
import { newId, type IdKind } from './ids';
import { pooledRandomBytes } from './random-pool';

/**
 * Ports shared by every service's application layer. Abstract classes, so each is its own DI
 * token: `{ provide: UnitOfWork, useClass: PrismaUnitOfWork }`.
 */

/** Runs work atomically; repositories and the outbox called inside join the same transaction. */
export abstract class UnitOfWork {
  abstract run<T>(work: () => Promise<T>): Promise<T>;
  /**
   * A unit of work that only writes: `work` has read everything it decides on before it opens,
   * and its writes reach the database together, atomically, in one round trip. Reading inside it
   * is a bug (the adapters refuse). Inside `run` it joins that unit.
   */
  abstract write<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Called inside `run`: `work` runs after the unit of work (the outermost one) rolls back, and
   * not at all if it commits. For a state a refusal must leave behind although it undoes the
   * rest (a quote FAILED because its account can no longer trade). If `work` fails, that
   * failure replaces the refusal, so the command fails as unexpected and is retried.
   */
  abstract afterRollback(work: () => Promise<void>): void;
}

/** Records domain events in the same transaction as the state change (the outbox). */
export abstract class EventOutbox {
  /** Webhook events take their audience (spec 6.4); the compiler asks for it. */
  abstract append<T extends EventType>(type: T, data: EventContract[T], ...audience: AudienceArgument<T>): Promise<DomainEvent>;
}

/** Remembers which events a subscriber has handled, inside the handler's transaction. */
export abstract class ProcessedEventLog {
  /** True the first time an id is seen; false for a repeat delivery. */
  abstract markProcessed(eventId: string): Promise<boolean>;
  /** `markProcessed` for a batch, in one round trip: the ids seen for the first time. */
  abstract markAllProcessed(eventIds: readonly string[]): Promise<ReadonlySet<string>>;
  /**
   * Records a batch as handled with the unit of work's writes (its one statement in a write-only
   * unit), for events not seen before: one handled already, or twice in the batch, refuses the
   * whole unit, which then writes nothing.
   */
  abstract claimAll(eventIds: readonly string[]): Promise<void>;
  /**
   * For an ordered handler: records the event's sequence as the newest applied for its publisher,
   * aggregate and type. False when one at least as new was applied before (the event is stale).
   */
  abstract advanceSequence(event: Pick<DomainEvent, 'source' | 'aggregateId' | 'type' | 'sequence'>): Promise<boolean>;
}

/** Time comes through a port so tests can pin it. */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

/** Ids come through a port, so tests can pin them. */
export abstract class IdGenerator {
  abstract next(kind: IdKind): string;
}

export class RandomIdGenerator extends IdGenerator {
  next(kind: IdKind): string {
    return newId(kind);
  }
}

/** Randomness comes through a port, so tests can pin generated addresses and account numbers. */
export abstract class RandomSource {
  abstract bytes(length: number): Uint8Array;
}

export class CryptoRandomSource extends RandomSource {
  bytes(length: number): Uint8Array {
    return new Uint8Array(pooledRandomBytes(length));
  }
}
