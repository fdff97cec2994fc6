import { randomBytes } from 'node:crypto';
import { Injectable, Module } from '@nestjs/common';
import { commandConsumerProvider, ServiceRuntimeModule } from '@pfs/messaging';
import type { PingResult } from '@pfs/contracts';
import { eventually, isolateQueues, startServiceUnderTest, type ServiceUnderTest } from '@pfs/testing';
import { failedFast } from './support/failed-fast';
import { pingOnlyTable } from './support/ping-only-handlers';

isolateQueues('msg-boot');

// A service process in miniature: the shared runtime plus one command whose handler takes a
// while, to see what start-up readiness and shutdown do to commands in flight.

const HANDLER_MS = 400;

@Injectable()
class SlowPingUseCase {
  async execute(): Promise<PingResult> {
    await new Promise((resolve) => setTimeout(resolve, HANDLER_MS));
    return { service: 'quote', time: new Date().toISOString() };
  }
}

@Module({
  imports: [ServiceRuntimeModule.forService({ service: 'quote', schema: 'quote' })],
  providers: [...commandConsumerProvider('quote', pingOnlyTable('quote', SlowPingUseCase))],
})
class SlowQuoteModule {}

function requestId(): string {
  return `req_${randomBytes(16).toString('hex')}`;
}

describe('bootstrapService', () => {
  let service: ServiceUnderTest;

  beforeAll(async () => {
    service = await startServiceUnderTest(SlowQuoteModule);
  });

  afterAll(async () => {
    await service?.close();
  });

  it('is consumed by the time it has started: the first command is answered and /readyz is ok', async () => {
    // No pause between start-up and the first command.
    await expect(service.bus.send('quote', 'system.ping', {}, { requestId: requestId() })).resolves.toMatchObject({ service: 'quote' });
    const ready = await fetch(`${service.adminUrl}/readyz`);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { postgres: 'ok', redis: 'ok', queues: 'ok' } });
  });

  it('on stop, finishes the command in flight and delivers its reply, then leaves the queue unconsumed', async () => {
    const inFlight = service.bus.send('quote', 'system.ping', {}, { requestId: requestId() });
    await new Promise((resolve) => setTimeout(resolve, HANDLER_MS / 4));

    const stopping = service.stop();
    expect(service.stop()).toBe(stopping);

    await expect(inFlight).resolves.toMatchObject({ service: 'quote' });
    await stopping;
    // The sender notices within its worker refresh interval and then fails fast: refused before
    // its job is queued (a send that queues and waits out the probe's timeout does not count).
    await eventually(async () => {
      const id = requestId();
      return (await failedFast(id, () => service.bus.send('quote', 'system.ping', {}, { requestId: id, timeoutMs: 200 }))) ? true : undefined;
    }, 10000);
  });
});
