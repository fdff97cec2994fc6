import { EndpointDirectory, type EndpointTarget } from '../../../src/application/ports/endpoint-directory';

/**
 * The webhook-delivery service's endpoints as a map the test fills. Disabling records the call
 * and, as the service would, makes the endpoint inactive for the attempts after it.
 */
export class FakeEndpointDirectory extends EndpointDirectory {
  readonly targets = new Map<string, EndpointTarget>();
  readonly disabled: Array<{ endpointId: string; reason: 'gone' | 'failing' }> = [];

  async target(endpointId: string): Promise<EndpointTarget | null> {
    const target = this.targets.get(endpointId);
    return target ? { ...target, secrets: [...target.secrets] } : null;
  }

  async disable(endpointId: string, reason: 'gone' | 'failing'): Promise<void> {
    this.disabled.push({ endpointId, reason });
    const target = this.targets.get(endpointId);
    if (target) target.active = false;
  }

  /** Registers an endpoint (active, one secret unless given). */
  add(target: Pick<EndpointTarget, 'endpointId' | 'organizationId' | 'url' | 'secrets'> & Partial<EndpointTarget>): EndpointTarget {
    const full: EndpointTarget = { active: true, ...target };
    this.targets.set(full.endpointId, full);
    return full;
  }
}
