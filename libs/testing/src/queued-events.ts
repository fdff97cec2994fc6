import { EVENT_BATCH_JOB, type EventBatchJobData } from '@pfs/contracts';

/** What of a BullMQ job these helpers read (a `Job` fits). */
export interface QueuedJob {
  name: string;
  data: unknown;
  opts?: { jobId?: string };
}

/** What of a BullMQ queue these helpers read (a `Queue` fits). */
export interface EventQueueReader {
  getJob(id: string): Promise<QueuedJob | undefined>;
  getJobs(types: Array<'waiting' | 'active' | 'delayed' | 'completed'>): Promise<QueuedJob[]>;
}

/** The ids of the events a job carries: its own event's (its job id), or each of a job of several. */
export function carriedEventIds(job: QueuedJob): Array<string | undefined> {
  return job.name === EVENT_BATCH_JOB ? (job.data as EventBatchJobData).events.map((event) => (event as { id?: string }).id) : [job.opts?.jobId];
}

/**
 * An event as queued for a subscriber: in a job of its own, under its id, or in a job of several
 * (the relay's for events that went out together). Undefined while it is in neither.
 */
export async function queuedEvent(queue: EventQueueReader, eventId: string): Promise<{ job: QueuedJob; event: unknown } | undefined> {
  const own = await queue.getJob(eventId);
  if (own) return { job: own, event: own.data };
  for (const job of await queue.getJobs(['waiting', 'active', 'delayed', 'completed'])) {
    if (job.name !== EVENT_BATCH_JOB) continue;
    const event = (job.data as EventBatchJobData).events.find((carried) => (carried as { id?: string }).id === eventId);
    if (event) return { job, event };
  }
  return undefined;
}
