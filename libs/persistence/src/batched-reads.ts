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

/**
 * A read by key's rows put back in the order of its keys, one per key (undefined where no row
 * matched): what a `batchedReads` read answers before it maps each row.
 */
export function inKeyOrder<K, R>(keys: readonly K[], rows: readonly R[], keyOf: (row: R) => K): Array<R | undefined> {
  const byKey = new Map(rows.map((row) => [keyOf(row), row] as const));
  return keys.map((key) => byKey.get(key));
}
