import { addressProblem, webhookUrlProblem } from '@pfs/codecs';
import { CursorCodec } from '@pfs/contracts';
import { InMemoryEventOutbox, InMemoryUnitOfWork, ManualClock, SeededRandomSource, SequentialIdGenerator } from '@pfs/test-doubles';
import { SecretSealer } from '../../../src/application/ports/secret-sealer';
import { WebhookMessageRepository } from '../../../src/application/ports/webhook-message.repository';
import { DisableEndpointUseCase } from '../../../src/application/use-cases/disable-endpoint/disable-endpoint.use-case';
import { FanOutEventUseCase } from '../../../src/application/use-cases/fan-out-event/fan-out-event.use-case';
import { GetEndpointTargetUseCase } from '../../../src/application/use-cases/get-endpoint-target/get-endpoint-target.use-case';
import type { WebhookMessage } from '../../../src/domain/webhook-message';
import { DestinationGuard } from '../../../src/application/ports/destination-guard';
import { CreateEndpointUseCase } from '../../../src/application/use-cases/create-endpoint/create-endpoint.use-case';
import { DeleteEndpointUseCase } from '../../../src/application/use-cases/delete-endpoint/delete-endpoint.use-case';
import { GetEndpointSecretUseCase } from '../../../src/application/use-cases/get-endpoint-secret/get-endpoint-secret.use-case';
import { GetEndpointUseCase } from '../../../src/application/use-cases/get-endpoint/get-endpoint.use-case';
import { ListEndpointsUseCase } from '../../../src/application/use-cases/list-endpoints/list-endpoints.use-case';
import { RotateEndpointSecretUseCase } from '../../../src/application/use-cases/rotate-endpoint-secret/rotate-endpoint-secret.use-case';
import { UpdateEndpointUseCase } from '../../../src/application/use-cases/update-endpoint/update-endpoint.use-case';
import { InMemoryWebhookEndpointRepository } from './in-memory-webhook-endpoint.repository';

/** The SSRF rules with a DNS the test writes: host name → addresses. */
export class FixedDnsDestinationGuard extends DestinationGuard {
  readonly dns = new Map<string, string[]>();

  async problem(url: string): Promise<string | null> {
    const form = webhookUrlProblem(url, { allowInsecure: false });
    if (form) return form;
    const host = new URL(url).hostname;
    const addresses = this.dns.get(host);
    if (!addresses) return null; // a literal address, already checked by its form
    for (const address of addresses) {
      const problem = addressProblem(address, { allowInsecure: false });
      if (problem) return `host ${host} ${problem}`;
    }
    return null;
  }
}

/** Messages by event id, as `webhook.messages` keeps them (event_id is unique). */
export class InMemoryWebhookMessageRepository extends WebhookMessageRepository {
  readonly messages = new Map<string, WebhookMessage>();

  async insert(message: WebhookMessage): Promise<boolean> {
    if (this.messages.has(message.eventId)) return false;
    this.messages.set(message.eventId, message);
    return true;
  }

  async record(message: WebhookMessage): Promise<void> {
    if (!(await this.insert(message))) throw new Error(`event ${message.eventId} has a message already`);
  }
}

/** Marks a secret sealed without encrypting it, so a test can read what was sent. */
export class MarkingSecretSealer extends SecretSealer {
  seal(secret: string): string {
    return `sealed(${secret})`;
  }
}

/** The webhook-delivery service's use cases wired in memory. */
export function webhookDeliveryInMemory() {
  const clock = new ManualClock();
  const ids = new SequentialIdGenerator();
  const unitOfWork = new InMemoryUnitOfWork();
  const random = new SeededRandomSource('webhooks');
  const endpoints = new InMemoryWebhookEndpointRepository();
  const destinations = new FixedDnsDestinationGuard();
  destinations.dns.set('hooks.example.com', ['93.184.216.34']);
  const cursors = new CursorCodec('test-cursor-secret');
  const messages = new InMemoryWebhookMessageRepository();
  const outbox = new InMemoryEventOutbox(clock);
  return {
    clock,
    endpoints,
    destinations,
    messages,
    outbox,
    fanOutEvent: new FanOutEventUseCase(endpoints, messages, outbox, ids, clock),
    getEndpointTarget: new GetEndpointTargetUseCase(endpoints, new MarkingSecretSealer(), clock),
    disableEndpoint: new DisableEndpointUseCase(unitOfWork, endpoints, clock),
    createEndpoint: new CreateEndpointUseCase(unitOfWork, endpoints, destinations, random, ids, clock),
    listEndpoints: new ListEndpointsUseCase(endpoints, cursors),
    getEndpoint: new GetEndpointUseCase(endpoints),
    updateEndpoint: new UpdateEndpointUseCase(unitOfWork, endpoints, destinations, clock),
    deleteEndpoint: new DeleteEndpointUseCase(unitOfWork, endpoints, clock),
    getEndpointSecret: new GetEndpointSecretUseCase(endpoints),
    rotateEndpointSecret: new RotateEndpointSecretUseCase(unitOfWork, endpoints, random, clock),
  };
}

export type WebhookDeliveryInMemory = ReturnType<typeof webhookDeliveryInMemory>;
