import { systemCommands } from './system';

/** The webhook-delivery service's queue: `system.ping` until its first command is declared here. */
export const webhookDeliveryCommands = { ...systemCommands } as const;
