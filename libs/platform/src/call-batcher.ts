import DataLoader from 'dataloader';

export interface CallBatcherOptions {
  /** Batches in flight at once (for statements: at most the pool's connections this path should take). */
  maxInFlight: number;
  /** Calls one batch carries at most. */
  maxBatchSize: number;
}

/**
 * One round trip for the calls that arrive together (one statement to PostgreSQL, one script call
 * to Redis). A call made while `maxInFlight` batches are running waits for one of them to end, and
 * every call made meanwhile joins it: under load callers share a round trip (each one costs the
 * process a socket write and a wake of the server), and a lone call still goes at the next turn
 * of the event loop.
 * `run` answers one result or Error per key, in order; when it throws, every key of the batch
 * gets that error.
 */
export function callBatcher<K, V>(run: (keys: readonly K[]) => Promise<ReadonlyArray<V | Error>>, options: CallBatcherOptions): (key: K) => Promise<V> {
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
