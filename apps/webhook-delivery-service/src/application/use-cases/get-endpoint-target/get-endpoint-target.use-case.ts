import { Injectable } from '@nestjs/common';
import { Clock, type WebhookEndpointTargetView } from '@pfs/contracts';
import { SecretSealer } from '../../ports/secret-sealer';
import { WebhookEndpointRepository } from '../../ports/webhook-endpoint.repository';
import type { GetEndpointTargetQuery } from './get-endpoint-target.query';

/**
 * The delivery worker asks at an attempt: where the endpoint is now, whether it still takes
 * deliveries, and the secrets to sign with now (a retiring one only within its grace period).
 * An unknown id is null; a deleted or disabled endpoint is inactive.
 */
@Injectable()
export class GetEndpointTargetUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly sealer: SecretSealer,
    private readonly clock: Clock,
  ) {}

  async execute(query: GetEndpointTargetQuery): Promise<WebhookEndpointTargetView | null> {
    const endpoint = await this.endpoints.findById(query.endpointId);
    if (!endpoint) return null;
    const e = endpoint.props;
    const active = !e.disabled && e.deletedAt === null;
    return {
      endpointId: e.id,
      organizationId: e.organizationId,
      url: e.url,
      active,
      sealedSecrets: active ? endpoint.signingSecrets(this.clock.now()).map((secret) => this.sealer.seal(secret)) : [],
    };
  }
}
