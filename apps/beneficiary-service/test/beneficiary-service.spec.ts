import { isolateQueues, startServiceUnderTest, type ServiceUnderTest } from '@pfs/testing';

isolateQueues('beneficiary');

describe('beneficiary service process', () => {
  let service: ServiceUnderTest;

  beforeAll(async () => {
    const { BeneficiaryModule } = await import('../src/beneficiary.module');
    service = await startServiceUnderTest(BeneficiaryModule);
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
    const reply = await service.bus.send('beneficiary', 'system.ping', {}, { requestId: 'req_test' });
    expect(reply.service).toBe('beneficiary');
    expect(Number.isNaN(Date.parse(reply.time))).toBe(false);
  });
});
