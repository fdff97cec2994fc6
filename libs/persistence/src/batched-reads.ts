import { callBatcher, type CallBatcherOptions } from '@pfs/platform';

/** Reads on a hot path: two statements of a kind at a time, each for up to 64 keys. */
const HOT_READS: CallBatcherOptions = { maxInFlight: 2, maxBatchSize: 64 };

/**
 * An adapter's read by key: the calls made together outside any transaction share one statement
 * (`callBatcher`); inside a unit of work (`inTransaction`) the read runs alone, on the unit's
 * transaction. `read` answers one value per key, in order.
 */
export function batchedReads<K, V>(read: (keys: readonly K[]) => Promise<readonly V[]>, inTransaction: () => boolean, options: CallBatcherOptions = HOT_READS): (key: K) => Promise<V> {
  const batched = callBatcher<K, V>(read, options);
  return async (key) => (inTransaction() ? ((await read([key]))[0] as V) : batched(key));
}
