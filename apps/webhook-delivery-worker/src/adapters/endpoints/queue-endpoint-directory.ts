import { newRequestId } from '@pfs/contracts';
import type { CommandBus } from '@pfs/messaging';
import { currentRequestId, type SecretBox } from '@pfs/platform';
import { LRUCache } from 'lru-cache';
import { EndpointDirectory, type EndpointTarget } from '../../application/ports/endpoint-directory';

export interface EndpointDirectoryOptions {
  /** How long an endpoint's answer is reused (WEBHOOK_ENDPOINT_CACHE_MS): a change reaches attempts within it. 0: ask every time. */
  cacheMs: number;
}

const NOT_FOUND = Symbol('not found');

/**
 * Endpoints as the webhook-delivery service (their owner) describes them, asked over its command
 * queue. The secrets arrive sealed and are opened here with WEBHOOK_SECRET_KEY. Answers are
 * reused for a second by default, so a burst to one endpoint asks once; concurrent asks for one
 * endpoint share a single round trip.
 */
export class QueueEndpointDirectory extends EndpointDirectory {
  private readonly cache: LRUCache<string, EndpointTarget | typeof NOT_FOUND> | null;
  private readonly inFlight = new Map<string, Promise<EndpointTarget | null>>();

  constructor(
    private readonly bus: CommandBus,
    private readonly box: SecretBox,
    options: EndpointDirectoryOptions,
  ) {
    super();
    this.cache = options.cacheMs > 0 ? new LRUCache({ max: 10_000, ttl: options.cacheMs }) : null;
  }

  async target(endpointId: string): Promise<EndpointTarget | null> {
    const cached = this.cache?.get(endpointId);
    if (cached !== undefined) return cached === NOT_FOUND ? null : cached;
    let asking = this.inFlight.get(endpointId);
    if (!asking) {
      asking = this.ask(endpointId).finally(() => this.inFlight.delete(endpointId));
      this.inFlight.set(endpointId, asking);
    }
    return asking;
  }

  async disable(endpointId: string, reason: 'gone' | 'failing'): Promise<void> {
    await this.bus.send('webhook-delivery', 'endpoints.disable', { endpointId, reason }, { requestId: currentRequestId() ?? newRequestId() });
    this.cache?.delete(endpointId);
  }

  private async ask(endpointId: string): Promise<EndpointTarget | null> {
    const view = await this.bus.send('webhook-delivery', 'endpoint-targets.get', { endpointId }, { requestId: currentRequestId() ?? newRequestId() });
    const target = view && {
      endpointId: view.endpointId,
      organizationId: view.organizationId,
      url: view.url,
      active: view.active,
      secrets: view.sealedSecrets.map((sealed) => this.box.open(sealed)),
    };
    this.cache?.set(endpointId, target ?? NOT_FOUND);
    return target;
  }
}
