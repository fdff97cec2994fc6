import type { EndpointHealth } from '../../domain/endpoint-health';

export abstract class EndpointHealthRepository {
  /** One more failed attempt in the endpoint's run (atomically, whatever runs beside it); the run after it. */
  abstract recordFailure(endpointId: string, now: Date): Promise<EndpointHealth>;
  /** A success ends the run. */
  abstract recordSuccess(endpointId: string): Promise<void>;
}
