import { AsyncLocalStorage } from 'node:async_hooks';
import { UnitOfWork } from '@pfs/contracts';
import type { PrismaClient, PrismaTx } from './prisma-client.factory';

interface TxStore {
  tx: PrismaTx;
  afterCommit: Array<() => void>;
  afterRollback: Array<() => Promise<void>>;
}

export interface TransactionHostOptions {
  /**
   * Runs inside the transaction after the work, just before COMMIT; throwing rolls it back.
   * The services use it to refuse committing a command whose sender has stopped waiting.
   */
  beforeCommit?: () => void;
}

/**
 * Carries the current Prisma transaction through async calls, so repositories and the outbox
 * join whatever unit of work the use case opened without the use case seeing Prisma.
 */
export class PrismaTransactionHost {
  private readonly storage = new AsyncLocalStorage<TxStore>();

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
    let result: T;
    try {
      result = await this.root.$transaction(
        (tx) =>
          this.storage.run({ tx, afterCommit, afterRollback }, async () => {
            const value = await work();
            this.options.beforeCommit?.();
            return value;
          }),
        { maxWait: 5000, timeout: 10000 },
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
