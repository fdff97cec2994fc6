import type { Queue } from 'bullmq';

/** One job as `Queue.addBulk` takes it. */
export type BulkJob = Parameters<Queue['addBulk']>[0][number];

/**
 * Adds jobs to a queue in one round trip: one job as one script call, several in one MULTI.
 * (`addBulk` wraps even a single job in a MULTI, whose pipeline object copies every script
 * defined on the connection: about 50 for a BullMQ queue's.)
 */
export async function addJobs(queue: Queue, jobs: readonly BulkJob[]): Promise<void> {
  const [only, ...more] = jobs;
  if (!only) return;
  if (more.length) await queue.addBulk([...jobs]);
  else await queue.add(only.name, only.data, only.opts);
}

/** `items` in consecutive slices of at most `size`, in order. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}
