import { Injectable } from '@nestjs/common';
import type { EventEnvelope } from '@pfs/contracts';
import type { EventHandler } from '@pfs/messaging';
import { FanOutEventUseCase } from '../../application/use-cases/fan-out-event/fan-out-event.use-case';

/**
 * `organization.verification.updated` → one message to the organization's endpoints and its
 * creator's (spec 6.4), in the event's inbox transaction.
 */
@Injectable()
export class OrganizationVerificationUpdatedSubscriber implements EventHandler<'organization.verification.updated'> {
  readonly event = 'organization.verification.updated' as const;

  constructor(private readonly fanOut: FanOutEventUseCase) {}

  async handle(event: EventEnvelope<'organization.verification.updated'>): Promise<void> {
    await this.fanOut.execute(event);
  }

  plan(event: EventEnvelope<'organization.verification.updated'>): Promise<(() => Promise<void>) | null> {
    return this.fanOut.plan(event);
  }
}
