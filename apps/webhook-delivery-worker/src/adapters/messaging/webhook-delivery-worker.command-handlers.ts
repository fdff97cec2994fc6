import { commandHandlers, PingUseCase } from '@pfs/messaging';
import { ListDeliveryAttemptsUseCase } from '../../application/use-cases/list-delivery-attempts/list-delivery-attempts.use-case';
import { RecoverDeliveriesUseCase } from '../../application/use-cases/recover-deliveries/recover-deliveries.use-case';
import { ResendDeliveryUseCase } from '../../application/use-cases/resend-delivery/resend-delivery.use-case';

/**
 * The webhook-delivery-worker service's queue: one line per command of `libs/contracts/src/commands/webhook-delivery-worker.ts`.
 * `<resource>.<verb>` is answered by `use-cases/<verb>-<resource>/`. (Attempts run from the
 * `webhook-deliveries` queue: `deliveries.attempt` → `use-cases/attempt-delivery/`.)
 */
export const WEBHOOK_DELIVERY_WORKER_COMMAND_HANDLERS = commandHandlers('webhook-delivery-worker', {
  'system.ping': PingUseCase,
  'delivery-attempts.list': ListDeliveryAttemptsUseCase,
  'deliveries.resend': ResendDeliveryUseCase,
  'deliveries.recover': RecoverDeliveriesUseCase,
});
