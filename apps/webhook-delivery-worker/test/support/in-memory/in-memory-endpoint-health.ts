import type { EndpointHealth } from '../../../src/domain/endpoint-health';

/**
 * Each endpoint's run of failures in a map, as `delivery.endpoint_health` keeps it: written by
 * the in-memory delivery repository with each attempt, read by tests.
 */
export class InMemoryEndpointHealth {
  readonly runs = new Map<string, EndpointHealth>();

  async recordFailure(endpointId: string, now: Date): Promise<EndpointHealth> {
    const run = this.runs.get(endpointId);
    const next = { consecutiveFailures: (run?.consecutiveFailures ?? 0) + 1, failingSince: run?.failingSince ?? now };
    this.runs.set(endpointId, next);
    return { ...next };
  }

  async recordSuccess(endpointId: string): Promise<EndpointHealth> {
    if (this.runs.has(endpointId)) this.runs.set(endpointId, { consecutiveFailures: 0, failingSince: null });
    return { consecutiveFailures: 0, failingSince: null };
  }

  /** The endpoint's run as a test reads it (healthy when never failed). */
  of(endpointId: string): EndpointHealth {
    return { ...(this.runs.get(endpointId) ?? { consecutiveFailures: 0, failingSince: null }) };
  }
}
