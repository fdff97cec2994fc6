import { Injectable } from '@nestjs/common';
import type { EventEnvelope } from '@pfs/contracts';
import type { EventHandler } from '@pfs/messaging';
import { FanOutEventUseCase } from '../../application/use-cases/fan-out-event/fan-out-event.use-case';

/**
 * `transaction.status.updated` → one message to the organization's endpoints, and its
 * creator's only while the organization holds an ACTIVE LOA for it (spec 6.4, the audience).
 */
@Injectable()
export class TransactionStatusUpdatedSubscriber implements EventHandler<'transaction.status.updated'> {
  readonly event = 'transaction.status.updated' as const;

  constructor(private readonly fanOut: FanOutEventUseCase) {}

  async handle(event: EventEnvelope<'transaction.status.updated'>): Promise<void> {
    await this.fanOut.execute(event);
  }

  plan(event: EventEnvelope<'transaction.status.updated'>): Promise<(() => Promise<void>) | null> {
    return this.fanOut.plan(event);
  }
}
