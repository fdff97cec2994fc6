import DataLoader from 'dataloader';

export interface StatementBatcherOptions {
  /** Batches whose statement may run at once: at most the pool's connections this path should take. */
  maxInFlight: number;
  /** Calls one statement carries at most. */
  maxBatchSize: number;
}

/**
 * One statement for the calls that arrive together. A call made while `maxInFlight` batches are
 * running waits for one of them to end, and every call made meanwhile joins it: under load
 * callers share a round trip to PostgreSQL (each one costs the process a socket write and a wake
 * of the server's backend), and a lone call still goes at the next turn of the event loop.
 * `run` answers one result or Error per key, in order; when it throws, every key of the batch
 * gets that error.
 */
export function statementBatcher<K, V>(run: (keys: readonly K[]) => Promise<ReadonlyArray<V | Error>>, options: StatementBatcherOptions): (key: K) => Promise<V> {
  let reserved = 0;
  const waiting: Array<() => void> = [];
  const start = (dispatch: () => void) => {
    reserved += 1;
    setImmediate(dispatch);
  };
  const loader = new DataLoader<K, V>(
    async (keys) => {
      try {
        return await run(keys);
      } finally {
        reserved -= 1;
        const next = waiting.shift();
        if (next) start(next);
      }
    },
    {
      cache: false,
      maxBatchSize: options.maxBatchSize,
      batchScheduleFn: (dispatch) => (reserved < options.maxInFlight ? start(dispatch) : waiting.push(dispatch)),
    },
  );
  return (key) => loader.load(key);
}

/** Reads on a hot path: two statements of a kind at a time, each for up to 64 keys. */
const HOT_READS: StatementBatcherOptions = { maxInFlight: 2, maxBatchSize: 64 };

/**
 * An adapter's read by key: the calls made together outside any transaction share one statement
 * (`statementBatcher`); inside a unit of work (`inTransaction`) the read runs alone, on the unit's
 * transaction. `read` answers one value per key, in order.
 */
export function batchedReads<K, V>(read: (keys: readonly K[]) => Promise<readonly V[]>, inTransaction: () => boolean, options: StatementBatcherOptions = HOT_READS): (key: K) => Promise<V> {
  const batched = statementBatcher<K, V>(read, options);
  return async (key) => (inTransaction() ? ((await read([key]))[0] as V) : batched(key));
}
