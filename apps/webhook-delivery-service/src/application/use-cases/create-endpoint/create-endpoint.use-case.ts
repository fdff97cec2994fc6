import { Injectable } from '@nestjs/common';
import { Clock, IdGenerator, RandomSource, UnitOfWork, type WebhookEndpointView } from '@pfs/contracts';
import { signingSecret, WebhookEndpoint } from '../../../domain/webhook-endpoint';
import { InvalidEndpointError } from '../../../domain/webhook-endpoint-errors';
import { DestinationGuard } from '../../ports/destination-guard';
import { WebhookEndpointRepository } from '../../ports/webhook-endpoint.repository';
import { presentEndpoint } from '../../webhook-endpoint.presenter';
import type { CreateEndpointCommand } from './create-endpoint.command';

/** POST /v1/webhooks/endpoints: registers a URL that passes the SSRF rules, with a new signing secret. */
@Injectable()
export class CreateEndpointUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly destinations: DestinationGuard,
    private readonly random: RandomSource,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(command: CreateEndpointCommand): Promise<WebhookEndpointView> {
    const problem = await this.destinations.problem(command.url);
    if (problem) throw new InvalidEndpointError(`url: ${problem}`);
    const endpoint = WebhookEndpoint.register({
      id: this.ids.next('webhookEndpoint'),
      organizationId: command.organizationId,
      url: command.url,
      description: command.description,
      eventTypes: command.eventTypes,
      secret: signingSecret(this.random.bytes(32)),
      now: this.clock.now(),
    });
    return this.unitOfWork.run(async () => {
      await this.endpoints.insert(endpoint);
      return presentEndpoint(endpoint);
    });
  }
}
