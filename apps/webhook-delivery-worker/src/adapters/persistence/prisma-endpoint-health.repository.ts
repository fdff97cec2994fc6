import { Injectable } from '@nestjs/common';
import { PrismaTransactionHost } from '@pfs/persistence';
import { EndpointHealthRepository } from '../../application/ports/endpoint-health.repository';
import type { EndpointHealth } from '../../domain/endpoint-health';

/** Each endpoint's run of failures in `delivery.endpoint_health`, counted in one statement so concurrent attempts add up. */
@Injectable()
export class PrismaEndpointHealthRepository extends EndpointHealthRepository {
  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  async recordFailure(endpointId: string, now: Date): Promise<EndpointHealth> {
    const [row] = await this.host.client.$queryRaw<Array<{ consecutive_failures: number; failing_since: Date | null }>>`
      INSERT INTO "delivery"."endpoint_health" AS h (endpoint_id, consecutive_failures, failing_since, updated_at)
      VALUES (${endpointId}, 1, ${now}, ${now})
      ON CONFLICT (endpoint_id) DO UPDATE
      SET consecutive_failures = h.consecutive_failures + 1, failing_since = COALESCE(h.failing_since, ${now}), updated_at = ${now}
      RETURNING consecutive_failures, failing_since`;
    return { consecutiveFailures: row.consecutive_failures, failingSince: row.failing_since };
  }

  async recordSuccess(endpointId: string): Promise<void> {
    // Most successes find a healthy endpoint: only a row in a failing run is written.
    await this.host.client.$executeRaw`
      UPDATE "delivery"."endpoint_health" SET consecutive_failures = 0, failing_since = NULL, updated_at = now()
      WHERE endpoint_id = ${endpointId} AND consecutive_failures > 0`;
  }
}
