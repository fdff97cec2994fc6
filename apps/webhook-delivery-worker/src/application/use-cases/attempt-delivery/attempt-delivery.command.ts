import type { DeliveryAttemptJob } from '@pfs/contracts';

/** A `deliveries.attempt` job of the `webhook-deliveries` queue. */
export type AttemptDeliveryCommand = DeliveryAttemptJob;
