import { AsyncLocalStorage } from 'node:async_hooks';
import { UnitOfWork } from '@pfs/contracts';
import type { PrismaClient, PrismaTx } from './prisma-client.factory';

interface TxStore {
  tx: PrismaTx;
  afterCommit: Array<() => void>;
  afterRollback: Array<() => Promise<void>>;
}

/**
 * Steps that bracket the first transaction a piece of work opens (see `withFirstTransaction`):
 * the command log claims its command id as the first statement and stores the result as the
 * last one, so both commit or roll back with the change itself.
 */
export interface TransactionBracket {
  /** The first statement of the transaction; throwing abandons it before the work runs. */
  opened(client: PrismaTx): Promise<void>;
  /** The last statement before COMMIT, with the value the transaction's work returned. */
  committing(client: PrismaTx, value: unknown): Promise<void>;
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
    return this.storage.getStore()?.tx ?? this.root;
  }

  get inTransaction(): boolean {
    return this.storage.getStore() !== undefined;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction) return work();
    const afterCommit: Array<() => void> = [];
    const afterRollback: Array<() => Promise<void>> = [];
    const bracket = this.takeBracket();
    let result: T;
    const limits = this.options.limits?.() ?? DEFAULT_LIMITS;
    try {
      result = await this.root.$transaction(
        (tx) =>
          openTransaction.run(true, () =>
            this.storage.run({ tx, afterCommit, afterRollback }, async () => {
              await bracket?.opened(tx);
              const value = await work();
              this.options.beforeCommit?.();
              await bracket?.committing(tx, value);
              return value;
            }),
          ),
        { maxWait: limits.maxWaitMs, timeout: limits.timeoutMs },
      );
    } catch (error) {
      // Outside the transaction now: each runs on its own connection, in order. One that fails
      // replaces the error, so the command fails as unexpected and is retried, never half-done.
      for (const callback of afterRollback) await callback();
      throw error;
    }
    for (const callback of afterCommit) callback();
    return result;
  }

  /**
   * Runs `work` so that the first transaction it opens on this host (and only that one, whatever
   * its outcome) is bracketed by `bracket`. Work that opens none leaves the bracket unused.
   */
  withFirstTransaction<T>(bracket: TransactionBracket, work: () => Promise<T>): Promise<T> {
    return this.pending.run({ bracket, used: false }, work);
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

  afterRollback(work: () => Promise<void>): void {
    this.host.afterRollback(work);
  }
}
