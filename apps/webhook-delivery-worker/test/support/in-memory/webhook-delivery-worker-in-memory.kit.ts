import { createHash } from 'node:crypto';
import { CursorCodec, type RandomSource } from '@pfs/contracts';
import { InMemoryUnitOfWork, ManualClock, SeededRandomSource, SequentialIdGenerator } from '@pfs/test-doubles';
import type { DueDelivery } from '../../../src/application/ports/delivery.repository';
import type { AttemptDeliveryCommand } from '../../../src/application/use-cases/attempt-delivery/attempt-delivery.command';
import { AttemptDeliveryUseCase } from '../../../src/application/use-cases/attempt-delivery/attempt-delivery.use-case';
import { ListDeliveryAttemptsUseCase } from '../../../src/application/use-cases/list-delivery-attempts/list-delivery-attempts.use-case';
import type { RecordMessageCommand } from '../../../src/application/use-cases/record-message/record-message.command';
import { RecordMessageUseCase } from '../../../src/application/use-cases/record-message/record-message.use-case';
import { RecoverDeliveriesUseCase } from '../../../src/application/use-cases/recover-deliveries/recover-deliveries.use-case';
import { ResendDeliveryUseCase } from '../../../src/application/use-cases/resend-delivery/resend-delivery.use-case';
import { SweepDeliveriesUseCase } from '../../../src/application/use-cases/sweep-deliveries/sweep-deliveries.use-case';
import { FakeEndpointDirectory } from './fake-endpoint.directory';
import { FixedDeliverySettings, type DeliverySettingsOverrides } from './fixed-delivery.settings';
import { InMemoryDeliveryRepository } from './in-memory-delivery.repository';
import { RecordingDeliveryQueue } from './recording-delivery.queue';
import { ScriptedWebhookSender } from './scripted-webhook.sender';

export interface WorkerKitOptions extends DeliverySettingsOverrides {
  /** The retry jitter's draws (a seeded source unless given). */
  random?: RandomSource;
}

/** A `whsec_` secret of 32 bytes derived from a label: valid for the signer and `standardwebhooks`. */
export function testSecret(label: string): string {
  return `whsec_${createHash('sha256').update(label).digest('base64')}`;
}

/** The `deliveries.attempt` job the queue would run for a queued delivery. */
export function attemptJob(due: DueDelivery): AttemptDeliveryCommand {
  return { deliveryId: due.deliveryId, endpointId: due.endpointId, attemptsMade: due.attemptsMade, dueAt: due.dueAt.getTime() };
}

/** The webhook-delivery worker's use cases wired in memory. */
export function webhookDeliveryWorkerInMemory(options: WorkerKitOptions = {}) {
  const clock = new ManualClock();
  const ids = new SequentialIdGenerator();
  const random = options.random ?? new SeededRandomSource('webhook-deliveries');
  const unitOfWork = new InMemoryUnitOfWork();
  const deliveries = new InMemoryDeliveryRepository();
  const health = deliveries.health;
  const endpoints = new FakeEndpointDirectory();
  const sender = new ScriptedWebhookSender();
  const queue = new RecordingDeliveryQueue();
  const settings = new FixedDeliverySettings(options);
  const cursors = new CursorCodec('test-cursor-secret');
  const kit = {
    clock,
    ids,
    deliveries,
    health,
    endpoints,
    sender,
    queue,
    settings,
    recordMessage: new RecordMessageUseCase(deliveries, queue, ids),
    attemptDelivery: new AttemptDeliveryUseCase(deliveries, endpoints, sender, queue, settings, ids, random, clock),
    sweepDeliveries: new SweepDeliveriesUseCase(deliveries, queue, settings, clock),
    listDeliveryAttempts: new ListDeliveryAttemptsUseCase(deliveries, cursors),
    resendDelivery: new ResendDeliveryUseCase(unitOfWork, deliveries, queue, clock),
    recoverDeliveries: new RecoverDeliveriesUseCase(unitOfWork, deliveries, queue, clock),
    /** A `webhook-message.created` event's data: a new message, created now, due to the given endpoints. */
    message(deliveries: RecordMessageCommand['deliveries'], fields: Partial<Omit<RecordMessageCommand, 'deliveries'>> = {}): RecordMessageCommand {
      const messageId = fields.messageId ?? ids.next('webhookMessage');
      return {
        messageId,
        eventType: 'transaction.status.updated',
        payload: JSON.stringify({ type: 'transaction.status.updated', timestamp: clock.now().toISOString(), data: { transaction_id: 'txn_1', status: 'COMPLETED' } }),
        createdAt: clock.now().toISOString(),
        ...fields,
        deliveries,
      };
    },
  };
  return kit;
}

export type WebhookDeliveryWorkerInMemory = ReturnType<typeof webhookDeliveryWorkerInMemory>;
