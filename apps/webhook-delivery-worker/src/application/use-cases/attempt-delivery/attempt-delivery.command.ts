import type { DeliveryAttemptJob } from '@pfs/contracts';

/**
 * One attempt of a `deliveries.attempt` job of the `webhook-deliveries` queue (the job's own, or
 * one it carries `also`), with the id of the job that carries it.
 */
export type AttemptDeliveryCommand = Omit<DeliveryAttemptJob, 'also'> & { jobId?: string };
