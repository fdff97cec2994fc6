import type { CommandService } from '@pfs/contracts';
import { startServiceUnderTest, type ServiceUnderTest } from './in-process-service';

/**
 * The checks every service passes from its first day: it starts against the real PostgreSQL
 * and Redis, reports alive and ready, and answers on its own command queue.
 */
export function describeServiceProcess(service: CommandService, loadModule: () => Promise<unknown>): void {
  describe(`${service} service process`, () => {
    let running: ServiceUnderTest;

    beforeAll(async () => {
      running = await startServiceUnderTest(await loadModule());
    });

    afterAll(async () => {
      await running?.close();
    });

    it('reports alive and ready with PostgreSQL, Redis and its queue', async () => {
      expect((await fetch(`${running.adminUrl}/healthz`)).status).toBe(200);
      const ready = await fetch(`${running.adminUrl}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ok', checks: { postgres: 'ok', redis: 'ok', queues: 'ok' } });
    });

    it('consumes its command queue and replies', async () => {
      const reply = await running.bus.send(service, 'system.ping', {}, { requestId: 'req_test' });
      expect(reply.service).toBe(service);
      expect(Number.isNaN(Date.parse(reply.time))).toBe(false);
    });
  });
}
