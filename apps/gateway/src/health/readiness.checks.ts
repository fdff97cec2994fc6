import { Injectable } from '@nestjs/common';
import { SERVICES, type CommandService } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { runChecks, type HealthReport, type ReadinessCheck } from '@pfs/platform';

/** Each command service must answer a ping within this; readiness must itself answer fast. */
export const PING_TIMEOUT_MS = 1000;

const COMMAND_SERVICES = SERVICES.filter((service): service is CommandService => service !== 'gateway');

/**
 * Ready = Redis answers and every service's command queue is consumed: a `system.ping` to each
 * service comes back. A service that is down makes the gateway unready rather than slow.
 */
@Injectable()
export class ReadinessChecks {
  constructor(private readonly bus: CommandBus) {}

  run(requestId: string): Promise<HealthReport> {
    const checks: Record<string, ReadinessCheck> = {
      redis: () => this.bus.ping(),
    };
    for (const service of COMMAND_SERVICES) {
      checks[service] = async () => {
        await this.bus.send(service, 'system.ping', {}, { requestId, timeoutMs: PING_TIMEOUT_MS });
      };
    }
    return runChecks(checks, PING_TIMEOUT_MS + 500);
  }
}
