import { commandHandlers, PingUseCase } from '@pfs/messaging';

/**
 * The quote service's queue: one line per command of `libs/contracts/src/commands/quote.ts`.
 * `<resource>.<verb>` is answered by `use-cases/<verb>-<resource>/`.
 */
export const QUOTE_COMMAND_HANDLERS = commandHandlers('quote', {
  'system.ping': PingUseCase,
});
