import { Inject, Injectable } from '@nestjs/common';
import type { EventEnvelope } from '@pfs/contracts';
import { LOGGER, type EventHandler } from '@pfs/messaging';
import type { Logger } from '@pfs/platform';

/**
 * Receives `organization.verification.updated` so the organization service's outbox drains
 * into this queue. Fan-out to webhook endpoints (spec 6.4: the organization and its creator)
 * arrives with webhook endpoints and messages; until then the event is recorded in the log
 * (public ids only) and acknowledged, its id kept in this service's inbox.
 */
@Injectable()
export class OrganizationVerificationUpdatedSubscriber implements EventHandler<'organization.verification.updated'> {
  readonly event = 'organization.verification.updated' as const;

  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  handle(event: EventEnvelope<'organization.verification.updated'>): Promise<void> {
    this.logger.info(
      {
        eventId: event.id,
        organizationId: event.audience.organizationId,
        parentOrganizationId: event.audience.parentOrganizationId,
        status: event.data.status,
        previousStatus: event.data.previous_status,
      },
      'verification update received; no webhook endpoints to fan out to yet',
    );
    return Promise.resolve();
  }
}
