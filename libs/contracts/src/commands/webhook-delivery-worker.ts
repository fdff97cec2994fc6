import { systemCommands } from './system';

/** The webhook-delivery-worker service's queue: `system.ping` until its first command is declared here. */
export const webhookDeliveryWorkerCommands = { ...systemCommands } as const;
