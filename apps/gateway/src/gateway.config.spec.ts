import { readGatewayConfig } from './gateway.config';

describe('readGatewayConfig', () => {
  it('keeps the idempotency window within what the services keep of command results (7 days)', () => {
    expect(readGatewayConfig({ IDEMPOTENCY_TTL_SECONDS: '604800' }).idempotencyTtlSeconds).toBe(604800);
    expect(readGatewayConfig({}).idempotencyTtlSeconds).toBe(86400);
    expect(() => readGatewayConfig({ IDEMPOTENCY_TTL_SECONDS: '604801' })).toThrow(
      'IDEMPOTENCY_TTL_SECONDS may be at most 604800 (how long the services keep command results)',
    );
  });

  it('needs IDEMPOTENCY_REPLAY_KEY in production, and reads it as a key ring', () => {
    const production = { SERVICE_ENV: 'production', API_KEY_PEPPER: 'pepper' };
    expect(() => readGatewayConfig(production)).toThrow('IDEMPOTENCY_REPLAY_KEY is required in production');
    const sealed = readGatewayConfig({ ...production, IDEMPOTENCY_REPLAY_KEY: 'k1' }).idempotencyReplayBox.seal('{"apiKey":"sk_live_x"}');
    expect(readGatewayConfig({ ...production, IDEMPOTENCY_REPLAY_KEY: 'k2,k1' }).idempotencyReplayBox.open(sealed)).toBe('{"apiKey":"sk_live_x"}');
  });
});
