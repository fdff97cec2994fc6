import { systemCommands } from './system';

/** The quote service's queue: `system.ping` until its first command is declared here. */
export const quoteCommands = { ...systemCommands } as const;
