import { commandHandlers, PingUseCase } from '@pfs/messaging';

/**
 * The beneficiary service's queue: one line per command of `libs/contracts/src/commands/beneficiary.ts`.
 * `<resource>.<verb>` is answered by `use-cases/<verb>-<resource>/`.
 */
export const BENEFICIARY_COMMAND_HANDLERS = commandHandlers('beneficiary', {
  'system.ping': PingUseCase,
});
