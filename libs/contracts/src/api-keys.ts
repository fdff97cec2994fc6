import { createHmac, randomBytes } from 'node:crypto';

/** api-decisions §3: `sk_test_<64 hex>` in sandbox, `sk_live_<64 hex>` in production. */
export type ServiceEnvironment = 'sandbox' | 'production';

const KEY_SHAPE = /^sk_(test|live)_[0-9a-f]{64}$/;

export function apiKeyPrefix(environment: ServiceEnvironment): string {
  return environment === 'production' ? 'sk_live_' : 'sk_test_';
}

export function generateApiKey(environment: ServiceEnvironment): string {
  return `${apiKeyPrefix(environment)}${randomBytes(32).toString('hex')}`;
}

/** Well-formed for this environment; a key of the other environment is not. */
export function isWellFormedApiKey(key: string, environment: ServiceEnvironment): boolean {
  return KEY_SHAPE.test(key) && key.startsWith(apiKeyPrefix(environment));
}

/**
 * Keys are stored only as HMAC-SHA256(pepper, key). The keys carry 256 bits of entropy, so
 * a fast keyed hash is enough; the pepper keeps a leaked table useless on its own.
 */
export function hashApiKey(key: string, pepper: string): string {
  return createHmac('sha256', pepper).update(key).digest('hex');
}

/** What may be shown of a key after creation: its prefix and last four characters. */
export function apiKeyHint(key: string): string {
  return `${key.slice(0, 8)}…${key.slice(-4)}`;
}
