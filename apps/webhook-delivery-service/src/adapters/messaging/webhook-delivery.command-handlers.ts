import { commandHandlers, PingUseCase } from '@pfs/messaging';

/**
 * The webhook-delivery service's queue: one line per command of `libs/contracts/src/commands/webhook-delivery.ts`.
 * `<resource>.<verb>` is answered by `use-cases/<verb>-<resource>/`.
 */
export const WEBHOOK_DELIVERY_COMMAND_HANDLERS = commandHandlers('webhook-delivery', {
  'system.ping': PingUseCase,
});
