import { readGatewayConfig } from './gateway.config';

describe('readGatewayConfig', () => {
  it('keeps the idempotency window within what the services keep of command results (7 days)', () => {
    expect(readGatewayConfig({ IDEMPOTENCY_TTL_SECONDS: '604800' }).idempotencyTtlSeconds).toBe(604800);
    expect(readGatewayConfig({}).idempotencyTtlSeconds).toBe(86400);
    expect(() => readGatewayConfig({ IDEMPOTENCY_TTL_SECONDS: '604801' })).toThrow(
      'IDEMPOTENCY_TTL_SECONDS may be at most 604800 (how long the services keep command results)',
    );
  });
});
