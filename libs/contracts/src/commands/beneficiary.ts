import { systemCommands } from './system';

/** The beneficiary service's queue: `system.ping` until its first command is declared here. */
export const beneficiaryCommands = { ...systemCommands } as const;
