import { createHash } from 'node:crypto';
import {
  Clock,
  EventOutbox,
  IdGenerator,
  ID_PREFIXES,
  RandomSource,
  UnitOfWork,
  type AudienceArgument,
  type DomainEvent,
  type EventContract,
  type EventType,
  type IdKind,
} from '@pfs/contracts';

/**
 * In-memory implementations of the ports every service shares, for use-case tests: no
 * database, no Redis, nothing random, time standing still unless the test moves it.
 */

/** Something whose writes a unit of work can undo: `snapshot()` answers the function that restores it. */
export interface Rollbackable {
  snapshot(): () => void;
}

/**
 * The database's all-or-nothing in memory: when the work throws, what the participants held
 * before it is restored, so "refused, nothing written" is tested as the database would have it;
 * then what was registered with `afterRollback` runs. Nested units join the outer one, as
 * PrismaTransactionHost does. Without participants nothing is undone (nothing to roll back).
 */
export class InMemoryUnitOfWork extends UnitOfWork {
  private depth = 0;
  private afterRollbacks: Array<() => Promise<void>> = [];

  constructor(private readonly participants: readonly Rollbackable[] = []) {
    super();
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.depth > 0) return work();
    const restore = this.participants.map((participant) => participant.snapshot());
    this.depth += 1;
    try {
      return await work();
    } catch (error) {
      for (const undo of restore) undo();
      const pending = this.afterRollbacks;
      this.afterRollbacks = [];
      this.depth -= 1;
      for (const callback of pending) await callback();
      throw error;
    } finally {
      this.depth = 0;
      this.afterRollbacks = [];
    }
  }

  write<T>(work: () => Promise<T>): Promise<T> {
    return this.run(work);
  }

  afterRollback(work: () => Promise<void>): void {
    if (this.depth > 0) this.afterRollbacks.push(work);
  }

  /** Whether a unit of work is open now: what a use case does while it is, a database would do holding a connection. */
  get inTransaction(): boolean {
    return this.depth > 0;
  }
}

/** Records what a use case appends, as the outbox table would, in order. */
export class InMemoryEventOutbox extends EventOutbox {
  readonly events: DomainEvent[] = [];
  private sequence = 0;

  constructor(private readonly clock: Clock = new ManualClock()) {
    super();
  }

  async append<T extends EventType>(type: T, data: EventContract[T], ...[audience]: AudienceArgument<T>): Promise<DomainEvent> {
    this.sequence += 1;
    const event = {
      id: `evt_${String(this.sequence).padStart(32, '0')}`,
      type,
      source: 'gateway',
      occurredAt: this.clock.now().toISOString(),
      requestId: null,
      data,
      ...(audience ? { audience } : {}),
    } as unknown as DomainEvent;
    this.events.push(event);
    return event;
  }

  /** The appended events of one type, their data only. */
  dataOf<T extends EventType>(type: T): Array<EventContract[T]> {
    return this.events.filter((event) => event.type === type).map((event) => event.data as EventContract[T]);
  }
}

/** A clock that stands still at `start` until the test advances or sets it. */
export class ManualClock extends Clock {
  private time: number;

  constructor(start: Date | string = '2026-11-23T08:00:00.000Z') {
    super();
    this.time = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.time);
  }

  advance(ms: number): void {
    this.time += ms;
  }

  set(at: Date | string): void {
    this.time = new Date(at).getTime();
  }
}

/** Ids in order, `org_000…01`, `org_000…02`, …: readable and predictable. */
export class SequentialIdGenerator extends IdGenerator {
  private count = 0;

  next(kind: IdKind): string {
    this.count += 1;
    return `${ID_PREFIXES[kind]}_${this.count.toString(16).padStart(32, '0')}`;
  }
}

/** Deterministic bytes from a seed (SHA-256 in counter mode): the same seed, the same addresses. */
export class SeededRandomSource extends RandomSource {
  private counter = 0;

  constructor(private readonly seed: string) {
    super();
  }

  bytes(length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (let offset = 0; offset < length; offset += 32) {
      const block = createHash('sha256').update(`${this.seed}:${(this.counter += 1)}`).digest();
      out.set(block.subarray(0, Math.min(32, length - offset)), offset);
    }
    return out;
  }
}
