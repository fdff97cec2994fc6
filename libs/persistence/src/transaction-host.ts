import { AsyncLocalStorage } from 'node:async_hooks';
import { UnitOfWork } from '@pfs/contracts';
import { sendOnDriver } from './driver-statement';
import { Prisma, type PrismaClient, type PrismaTx } from './prisma-client.factory';

/**
 * A write an adapter hands to the unit of work rather than sending it alone: the unit sends all
 * of them as one statement of common table expressions, its last before COMMIT (or, for a
 * write-only unit, as its only statement). PostgreSQL runs every data-modifying CTE of a
 * statement once, on one snapshot: two writes of one unit must not touch the same row (each
 * adapter merges its own writes into one, see `PrismaTransactionHost.deferOnce`).
 */
export interface DeferredWrite {
  /** The write's CTEs, `name AS (INSERT ...)`, each name starting with `prefix`. */
  ctes(prefix: string): Prisma.Sql[];
  /** A scalar subquery over the write's CTEs whose jsonb value `accept` is then given. */
  returning?(prefix: string): Prisma.Sql;
  accept?(value: unknown): void;
  /** The domain error the database's refusal of the statement means for this write, if any. */
  refusal?(error: unknown): Error | undefined;
}

interface TxStore {
  /** Absent in a write-only unit, which holds no connection while its work runs. */
  tx?: PrismaTx;
  deferred: DeferredWrite[];
  keyed: Map<object, DeferredWrite>;
  afterCommit: Array<() => void>;
  afterRollback: Array<() => Promise<void>>;
}

/**
 * What brackets the first unit of work a piece of work opens (see `withFirstTransaction`): the
 * command log claims its command id as the first statement and stores the result with the last
 * one, so both commit or roll back with the change itself.
 */
export interface TransactionBracket {
  /** The first statement of the transaction; throwing abandons it before the work runs. */
  opened(client: PrismaTx): Promise<void>;
  /** The result's write, sent with the unit's last statement, given the value its work returned. */
  committing(value: unknown): DeferredWrite;
  /**
   * A write-only unit has no first statement: the claim and the result are one write of its only
   * statement, which fails (and so writes nothing) when another delivery holds the id.
   */
  claimedWith(value: unknown): DeferredWrite;
  /** That statement was refused: nothing was claimed or stored, and the next unit brackets instead. */
  refused(): void;
}

interface PendingBracket {
  bracket: TransactionBracket;
  used: boolean;
}

// Shared by every host in the process: "is this async context inside some database transaction?"
const openTransaction = new AsyncLocalStorage<true>();

/**
 * True while the calling async context holds a database transaction of any host. The command
 * bus refuses to wait on another service then: the pooled connection would sit idle in
 * transaction for the whole round trip, and two services waiting on each other that way drain
 * only when deadlines fire.
 */
export function holdsDatabaseTransaction(): boolean {
  return openTransaction.getStore() === true;
}

export interface TransactionHostOptions {
  /**
   * Runs inside the transaction after the work, just before COMMIT; throwing rolls it back.
   * The services use it to refuse committing a command whose sender has stopped waiting.
   */
  beforeCommit?: () => void;
  /**
   * How long the transaction about to open may wait for a pooled connection and then run, in ms
   * (default 5 s and 10 s). The services give a command as long as its sender waits for it: on a
   * saturated machine a command queues for a connection or a row lock rather than failing while
   * its sender still waits, and past that its commit is refused anyway (`beforeCommit`).
   */
  limits?: () => { maxWaitMs: number; timeoutMs: number };
}

const DEFAULT_LIMITS = { maxWaitMs: 5000, timeoutMs: 10000 };

/**
 * Carries the current Prisma transaction through async calls, so repositories and the outbox
 * join whatever unit of work the use case opened without the use case seeing Prisma.
 */
export class PrismaTransactionHost {
  private readonly storage = new AsyncLocalStorage<TxStore>();
  private readonly pending = new AsyncLocalStorage<PendingBracket>();

  constructor(
    readonly root: PrismaClient,
    private readonly options: TransactionHostOptions = {},
  ) {}

  /** The transaction in progress, or the plain client outside one. */
  get client(): PrismaTx | PrismaClient {
    const store = this.storage.getStore();
    if (!store) return this.root;
    if (!store.tx) throw new Error('a write-only unit of work sends its writes as one statement at its end: read before it opens');
    return store.tx;
  }

  get inTransaction(): boolean {
    return this.storage.getStore() !== undefined;
  }

  /** True inside a write-only unit (`runWrites`): `write` defers, `client` refuses. */
  get writeOnly(): boolean {
    const store = this.storage.getStore();
    return store !== undefined && !store.tx;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction) return work();
    const store = this.newStore();
    const bracket = this.takeBracket();
    let result: T;
    const limits = this.options.limits?.() ?? DEFAULT_LIMITS;
    try {
      result = await this.root.$transaction(
        (tx) =>
          openTransaction.run(true, () =>
            this.storage.run({ ...store, tx }, async () => {
              await bracket?.opened(tx);
              const value = await work();
              this.options.beforeCommit?.();
              await this.send(tx, bracket ? [...store.deferred, bracket.committing(value)] : store.deferred);
              return value;
            }),
          ),
        { maxWait: limits.maxWaitMs, timeout: limits.timeoutMs },
      );
    } catch (error) {
      // Outside the transaction now: each runs on its own connection, in order. One that fails
      // replaces the error, so the command fails as unexpected and is retried, never half-done.
      for (const callback of store.afterRollback) await callback();
      throw error;
    }
    for (const callback of store.afterCommit) callback();
    return result;
  }

  /**
   * A unit of work that only writes: `work` has read what it decides on before, and every write
   * it makes is deferred, so the whole unit (with the command log's claim and result) is one
   * statement, atomic on its own, and no connection is held while `work` runs. Reading through
   * `client` inside it is a bug and throws. Inside another unit it joins that one.
   */
  async runWrites<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction) return work();
    const store = this.newStore();
    const bracket = this.takeBracket();
    let value: T;
    try {
      value = await this.storage.run(store, work);
      this.options.beforeCommit?.();
      await this.send(this.root, bracket ? [...store.deferred, bracket.claimedWith(value)] : store.deferred);
    } catch (error) {
      // Nothing of the unit was written, the claim included: the work's next unit brackets instead.
      if (bracket) this.releaseBracket(bracket);
      for (const callback of store.afterRollback) await callback();
      throw error;
    }
    for (const callback of store.afterCommit) callback();
    return value;
  }

  /**
   * The rows of one raw read: on the unit's transaction inside an interactive unit, straight on
   * the driver's pool outside any (`sendOnDriver`: a fraction of Prisma's CPU per statement).
   * Only for statements whose columns read the same both ways (text, boolean, integer, jsonb,
   * timestamps): numeric and int8 come back as strings from the driver, as Decimal and bigint
   * from Prisma. Inside a write-only unit it throws, as `client` does.
   */
  async query<Row extends object>(sql: Prisma.Sql): Promise<Row[]> {
    return this.rowsOn(this.client, sql);
  }

  /**
   * The rows of `sql` on `client`: straight on the driver when it is the root client (outside any
   * transaction the statement is atomic on its own), through Prisma on a transaction's client.
   * The same column types as `query` read the same both ways.
   */
  async rowsOn<Row extends object>(client: PrismaTx | PrismaClient, sql: Prisma.Sql): Promise<Row[]> {
    if (client === this.root) return (await sendOnDriver<Row & Record<string, unknown>>(this.root, sql)).rows;
    return client.$queryRaw<Row[]>(sql);
  }

  /**
   * Sends `write` now in an interactive unit or outside any (as a statement of its own), and
   * defers it to the unit's one statement in a write-only unit.
   */
  write(write: DeferredWrite): Promise<void> {
    return this.writeOnly ? this.defer(write) : this.send(this.client, [write]);
  }

  /** Defers `write` to the unit's last statement; outside a unit it is sent at once. */
  async defer(write: DeferredWrite): Promise<void> {
    const store = this.storage.getStore();
    if (store) store.deferred.push(write);
    else await this.send(this.root, [write]);
  }

  /**
   * The deferred write of this unit under `key`, created (and deferred) by `create` the first
   * time: for an adapter that merges all its writes of a unit into one (the outbox's events).
   * Undefined outside a unit.
   */
  deferOnce<W extends DeferredWrite>(key: object, create: () => W): W | undefined {
    const store = this.storage.getStore();
    if (!store) return undefined;
    let write = store.keyed.get(key) as W | undefined;
    if (!write) {
      write = create();
      store.keyed.set(key, write);
      store.deferred.push(write);
    }
    return write;
  }

  private newStore(): TxStore {
    return { deferred: [], keyed: new Map(), afterCommit: [], afterRollback: [] };
  }

  /** One statement for all `writes`: their CTEs, and one row with the values they return. */
  private async send(client: PrismaTx | PrismaClient, writes: readonly DeferredWrite[]): Promise<void> {
    if (!writes.length) return;
    const ctes = writes.flatMap((write, index) => write.ctes(`w${index}`));
    const returning = writes.flatMap((write, index) => (write.returning ? [{ write, sql: write.returning(`w${index}`) }] : []));
    const select = returning.length ? Prisma.join(returning.map((entry) => entry.sql), ', ') : Prisma.empty;
    const statement = Prisma.sql`WITH ${Prisma.join(ctes, ', ')} SELECT jsonb_build_array(${select}) AS results`;
    let values: unknown[];
    try {
      // Its one column is jsonb, which reads the same on the driver and through Prisma.
      const [row] = await this.rowsOn<{ results: unknown[] }>(client, statement);
      values = row?.results ?? [];
    } catch (error) {
      for (const write of writes) {
        const refusal = write.refusal?.(error);
        if (refusal) throw refusal;
      }
      throw error;
    }
    returning.forEach((entry, index) => entry.write.accept?.(values[index]));
  }

  /**
   * Runs `work` so that the first transaction it opens on this host (and only that one, whatever
   * its outcome) is bracketed by `bracket`; a write-only unit whose statement was refused (it
   * wrote nothing) passes the bracket on to the next. Work that opens none leaves the bracket unused.
   */
  withFirstTransaction<T>(bracket: TransactionBracket, work: () => Promise<T>): Promise<T> {
    return this.pending.run({ bracket, used: false }, work);
  }

  private releaseBracket(bracket: TransactionBracket): void {
    const pending = this.pending.getStore();
    if (pending) pending.used = false;
    bracket.refused();
  }

  private takeBracket(): TransactionBracket | undefined {
    const pending = this.pending.getStore();
    if (!pending || pending.used) return undefined;
    pending.used = true;
    return pending.bracket;
  }

  /** Runs `callback` once the surrounding transaction commits (at once outside one). */
  afterCommit(callback: () => void): void {
    const store = this.storage.getStore();
    if (store) store.afterCommit.push(callback);
    else callback();
  }

  /**
   * Runs `work` once the surrounding transaction has rolled back, outside it (nothing at all
   * outside one): for what a refusal must leave behind although the refusal undoes the rest.
   */
  afterRollback(work: () => Promise<void>): void {
    this.storage.getStore()?.afterRollback.push(work);
  }
}

export class PrismaUnitOfWork extends UnitOfWork {
  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.host.run(work);
  }

  write<T>(work: () => Promise<T>): Promise<T> {
    return this.host.runWrites(work);
  }

  afterRollback(work: () => Promise<void>): void {
    this.host.afterRollback(work);
  }
}
