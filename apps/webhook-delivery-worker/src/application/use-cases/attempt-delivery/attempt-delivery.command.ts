import type { DeliveryAttemptJob } from '@pfs/contracts';

/** One attempt of a `deliveries.attempt` job of the `webhook-deliveries` queue (the job's own, or one it carries `also`). */
export type AttemptDeliveryCommand = Omit<DeliveryAttemptJob, 'also'>;
