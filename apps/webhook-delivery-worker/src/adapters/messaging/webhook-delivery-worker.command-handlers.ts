import { commandHandlers, PingUseCase } from '@pfs/messaging';

/**
 * The webhook-delivery-worker service's queue: one line per command of `libs/contracts/src/commands/webhook-delivery-worker.ts`.
 * `<resource>.<verb>` is answered by `use-cases/<verb>-<resource>/`.
 */
export const WEBHOOK_DELIVERY_WORKER_COMMAND_HANDLERS = commandHandlers('webhook-delivery-worker', {
  'system.ping': PingUseCase,
});
