import { addressProblem, webhookUrlProblem } from '@pfs/codecs';
import { CursorCodec } from '@pfs/contracts';
import { InMemoryUnitOfWork, ManualClock, SeededRandomSource, SequentialIdGenerator } from '@pfs/test-doubles';
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

/** The webhook-delivery service's endpoint use cases wired in memory. */
export function webhookDeliveryInMemory() {
  const clock = new ManualClock();
  const ids = new SequentialIdGenerator();
  const unitOfWork = new InMemoryUnitOfWork();
  const random = new SeededRandomSource('webhooks');
  const endpoints = new InMemoryWebhookEndpointRepository();
  const destinations = new FixedDnsDestinationGuard();
  destinations.dns.set('hooks.example.com', ['93.184.216.34']);
  const cursors = new CursorCodec('test-cursor-secret');
  return {
    clock,
    endpoints,
    destinations,
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
