import { Injectable } from '@nestjs/common';
import { SERVICES, type CommandService } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { runChecks, type HealthReport, type ReadinessCheck } from '@pfs/platform';

/** Each command service must answer a ping within this; readiness must itself answer fast. */
export const PING_TIMEOUT_MS = 1000;

const COMMAND_SERVICES = SERVICES.filter((service): service is CommandService => service !== 'gateway');

/** `all`: the whole system (api-decisions §1); `gateway`: what this gateway process itself needs. */
export const READINESS_SCOPES = ['all', 'gateway'] as const;
export type ReadinessScope = (typeof READINESS_SCOPES)[number];

/**
 * Ready (scope `all`) = Redis answers and every service's command queue is consumed: a
 * `system.ping` to each service comes back. A service that is down makes the gateway unready
 * rather than slow. Scope `gateway` checks Redis only, for the orchestrator's probe: one service
 * down must not take every gateway replica out of rotation, since the gateway still serves the
 * other services' routes and answers that service's with a fast 503.
 */
@Injectable()
export class ReadinessChecks {
  constructor(private readonly bus: CommandBus) {}

  run(requestId: string, scope: ReadinessScope = 'all'): Promise<HealthReport> {
    const checks: Record<string, ReadinessCheck> = {
      redis: () => this.bus.ping(),
    };
    for (const service of scope === 'all' ? COMMAND_SERVICES : []) {
      checks[service] = async () => {
        await this.bus.send(service, 'system.ping', {}, { requestId, timeoutMs: PING_TIMEOUT_MS });
      };
    }
    return runChecks(checks, PING_TIMEOUT_MS + 500);
  }
}
