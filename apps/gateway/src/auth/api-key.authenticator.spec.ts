import { Clock, DomainError, generateApiKey, hashApiKey } from '@pfs/contracts';
import type { CommandBus } from '@pfs/messaging';
import { readGatewayConfig } from '../gateway.config';
import { AUTH_CACHE_TTL_MS, ApiKeyAuthenticator } from './api-key.authenticator';

/** Time as the test sets it: nothing here depends on how fast the machine is. */
class ManualClock extends Clock {
  private time = Date.parse('2026-11-23T08:00:00.000Z');
  now(): Date {
    return new Date(this.time);
  }
  advance(ms: number): void {
    this.time += ms;
  }
}

/**
 * The cache policy alone, with a stand-in for the organization service that knows one key:
 * answers are reused for at most the TTL, and made-up keys never push a valid key out.
 */
describe('ApiKeyAuthenticator cache', () => {
  const config = readGatewayConfig({ SERVICE_ENV: 'sandbox' });
  const validKey = generateApiKey('sandbox');
  const validHash = hashApiKey(validKey, config.apiKeyPepper);
  let lookups: string[];
  let revoked: boolean;
  const organizationService = {
    send: async (_service: string, _command: string, payload: { keyHash: string }) => {
      lookups.push(payload.keyHash);
      if (payload.keyHash === validHash && !revoked) {
        return { organizationId: 'org_0123456789abcdef0123456789abcdef', keyId: 'key_0123456789abcdef0123456789abcdef' };
      }
      throw new DomainError('authentication_failed', 'The API key is unknown or has been revoked.');
    },
  } as unknown as CommandBus;
  const validLookups = () => lookups.filter((hash) => hash === validHash).length;

  beforeEach(() => {
    lookups = [];
    revoked = false;
  });

  it('keeps serving a valid key from its cache while a flood of unknown keys is refused', async () => {
    const clock = new ManualClock();
    const authenticator = new ApiKeyAuthenticator(organizationService, config, clock);
    expect(await authenticator.authenticate(`Bearer ${validKey}`, 'req_1')).toMatchObject({ organizationId: 'org_0123456789abcdef0123456789abcdef' });
    for (let index = 0; index < 10_050; index += 1) {
      await expect(authenticator.authenticate(`Bearer ${generateApiKey('sandbox')}`, 'req_2')).rejects.toMatchObject({ code: 'authentication_failed' });
    }
    await authenticator.authenticate(`Bearer ${validKey}`, 'req_3');
    expect(validLookups()).toBe(1);
  });

  it('reuses an answer for at most the TTL, so a revocation bites well within the 5 s contract', async () => {
    expect(AUTH_CACHE_TTL_MS).toBeLessThan(5000);
    const clock = new ManualClock();
    const authenticator = new ApiKeyAuthenticator(organizationService, config, clock);
    await authenticator.authenticate(`Bearer ${validKey}`, 'req_1');
    revoked = true;
    clock.advance(AUTH_CACHE_TTL_MS);
    await expect(authenticator.authenticate(`Bearer ${validKey}`, 'req_2')).resolves.toMatchObject({ keyId: 'key_0123456789abcdef0123456789abcdef' });
    expect(validLookups()).toBe(1);
    clock.advance(1);
    await expect(authenticator.authenticate(`Bearer ${validKey}`, 'req_3')).rejects.toMatchObject({ code: 'authentication_failed' });
    expect(validLookups()).toBe(2);
  });

  it('remembers a rejection for the TTL too, then asks again', async () => {
    const clock = new ManualClock();
    const authenticator = new ApiKeyAuthenticator(organizationService, config, clock);
    const unknown = generateApiKey('sandbox');
    await expect(authenticator.authenticate(`Bearer ${unknown}`, 'req_1')).rejects.toMatchObject({ code: 'authentication_failed' });
    await expect(authenticator.authenticate(`Bearer ${unknown}`, 'req_2')).rejects.toMatchObject({ code: 'authentication_failed' });
    expect(lookups).toHaveLength(1);
    clock.advance(AUTH_CACHE_TTL_MS + 1);
    await expect(authenticator.authenticate(`Bearer ${unknown}`, 'req_3')).rejects.toMatchObject({ code: 'authentication_failed' });
    expect(lookups).toHaveLength(2);
  });

  it('counts the TTL from the question, not from the answer', async () => {
    const clock = new ManualClock();
    const slow = {
      send: async (...args: Parameters<CommandBus['send']>) => {
        // The organization service answers late: the answer is already that much older.
        clock.advance(AUTH_CACHE_TTL_MS - 500);
        return (organizationService.send as (...a: unknown[]) => Promise<unknown>)(...args);
      },
    } as unknown as CommandBus;
    const authenticator = new ApiKeyAuthenticator(slow, config, clock);
    await authenticator.authenticate(`Bearer ${validKey}`, 'req_1');
    clock.advance(501);
    await authenticator.authenticate(`Bearer ${validKey}`, 'req_2');
    expect(validLookups()).toBe(2);
  });
});
