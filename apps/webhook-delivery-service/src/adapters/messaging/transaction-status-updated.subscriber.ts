import { Inject, Injectable } from '@nestjs/common';
import type { EventEnvelope } from '@pfs/contracts';
import { LOGGER, type EventHandler } from '@pfs/messaging';
import type { Logger } from '@pfs/platform';

/**
 * Receives `transaction.status.updated` so the ledger's outbox drains into this queue. Fan-out
 * to webhook endpoints (spec 6.4: the organization, and its creator only under an ACTIVE LOA,
 * as the audience says) arrives with webhook endpoints and messages; until then the event is
 * recorded in the log (public ids only) and acknowledged, its id kept in this service's inbox.
 */
@Injectable()
export class TransactionStatusUpdatedSubscriber implements EventHandler<'transaction.status.updated'> {
  readonly event = 'transaction.status.updated' as const;

  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  handle(event: EventEnvelope<'transaction.status.updated'>): Promise<void> {
    this.logger.info(
      {
        eventId: event.id,
        transactionId: event.data.transaction_id,
        organizationId: event.audience.organizationId,
        parentOrganizationId: event.audience.parentOrganizationId,
        parentHoldsActiveLoa: event.audience.parentHoldsActiveLoa,
        status: event.data.status,
        previousStatus: event.data.previous_status,
      },
      'transaction status update received; no webhook endpoints to fan out to yet',
    );
    return Promise.resolve();
  }
}
