import { isolateQueues, startServiceUnderTest, type ServiceUnderTest } from '@pfs/testing';

isolateQueues('quote');

describe('quote service process', () => {
  let service: ServiceUnderTest;

  beforeAll(async () => {
    const { QuoteModule } = await import('../src/quote.module');
    service = await startServiceUnderTest(QuoteModule);
  });

  afterAll(async () => {
    await service?.close();
  });

  it('reports alive and ready with PostgreSQL, Redis and its queue', async () => {
    expect((await fetch(`${service.adminUrl}/healthz`)).status).toBe(200);
    const ready = await fetch(`${service.adminUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { postgres: 'ok', redis: 'ok', queues: 'ok' } });
  });

  it('consumes its command queue and replies', async () => {
    const reply = await service.bus.send('quote', 'system.ping', {}, { requestId: 'req_test' });
    expect(reply.service).toBe('quote');
    expect(Number.isNaN(Date.parse(reply.time))).toBe(false);
  });
});
