import { Injectable } from '@nestjs/common';
import type { EventEnvelope } from '@pfs/contracts';
import type { EventHandler } from '@pfs/messaging';
import { OpenPrimaryAccountUseCase } from '../../application/use-cases/open-primary-account/open-primary-account.use-case';

@Injectable()
export class OrganizationCreatedSubscriber implements EventHandler<'organization.created'> {
  readonly event = 'organization.created' as const;

  constructor(private readonly useCase: OpenPrimaryAccountUseCase) {}

  async handle(event: EventEnvelope<'organization.created'>): Promise<void> {
    await this.useCase.execute({ organizationId: event.data.organizationId, accountId: event.data.primaryAccountId });
  }
}
