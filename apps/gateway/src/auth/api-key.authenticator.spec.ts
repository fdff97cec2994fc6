import { DomainError, generateApiKey, hashApiKey } from '@pfs/contracts';
import type { CommandBus } from '@pfs/messaging';
import { readGatewayConfig } from '../gateway.config';
import { ApiKeyAuthenticator } from './api-key.authenticator';

/**
 * The cache policy alone, with a stand-in for the organization service that knows one key:
 * made-up keys must never push a valid key out of the cache.
 */
describe('ApiKeyAuthenticator cache', () => {
  const config = readGatewayConfig({ SERVICE_ENV: 'sandbox' });
  const validKey = generateApiKey('sandbox');
  const validHash = hashApiKey(validKey, config.apiKeyPepper);
  const lookups: string[] = [];
  const organizationService = {
    send: async (_service: string, _command: string, payload: { keyHash: string }) => {
      lookups.push(payload.keyHash);
      if (payload.keyHash === validHash) return { organizationId: 'org_0123456789abcdef0123456789abcdef', keyId: 'key_0123456789abcdef0123456789abcdef' };
      throw new DomainError('authentication_failed', 'The API key is unknown or has been revoked.');
    },
  } as unknown as CommandBus;

  it('keeps serving a valid key from its cache while a flood of unknown keys is refused', async () => {
    const authenticator = new ApiKeyAuthenticator(organizationService, config);
    expect(await authenticator.authenticate(`Bearer ${validKey}`, 'req_1')).toMatchObject({ organizationId: 'org_0123456789abcdef0123456789abcdef' });
    for (let index = 0; index < 10_050; index += 1) {
      await expect(authenticator.authenticate(`Bearer ${generateApiKey('sandbox')}`, 'req_2')).rejects.toMatchObject({ code: 'authentication_failed' });
    }
    const before = lookups.filter((hash) => hash === validHash).length;
    await authenticator.authenticate(`Bearer ${validKey}`, 'req_3');
    expect(lookups.filter((hash) => hash === validHash).length).toBe(before);
  });
});
