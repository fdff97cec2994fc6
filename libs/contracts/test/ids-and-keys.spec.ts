import { apiKeyHint, generateApiKey, hashApiKey, isWellFormedApiKey } from '../src/api-keys';
import { isId, newId, newRequestId } from '../src/ids';

describe('ids', () => {
  it('are <prefix>_<32 lowercase hex> and unique', () => {
    const id = newId('account');
    expect(id).toMatch(/^acct_[0-9a-f]{32}$/);
    expect(newId('account')).not.toBe(id);
    expect(newRequestId()).toMatch(/^req_[0-9a-f]{32}$/);
    expect(isId('account', id)).toBe(true);
    expect(isId('organization', id)).toBe(false);
    expect(isId('account', 'acct_ABC')).toBe(false);
  });
});

describe('api keys', () => {
  it('are sk_test_/sk_live_ plus 64 hex, and a key of the other environment is not well formed', () => {
    const sandbox = generateApiKey('sandbox');
    const live = generateApiKey('production');
    expect(sandbox).toMatch(/^sk_test_[0-9a-f]{64}$/);
    expect(live).toMatch(/^sk_live_[0-9a-f]{64}$/);
    expect(isWellFormedApiKey(sandbox, 'sandbox')).toBe(true);
    expect(isWellFormedApiKey(live, 'sandbox')).toBe(false);
    expect(isWellFormedApiKey(sandbox, 'production')).toBe(false);
    expect(isWellFormedApiKey(`${sandbox}0`, 'sandbox')).toBe(false);
  });

  it('are stored as a peppered hash that reveals nothing of the key', () => {
    const key = generateApiKey('sandbox');
    const hash = hashApiKey(key, 'pepper-a');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(hashApiKey(key, 'pepper-a'));
    expect(hash).not.toBe(hashApiKey(key, 'pepper-b'));
    expect(hash).not.toContain(key.slice(8, 20));
    expect(apiKeyHint(key)).toBe(`${key.slice(0, 8)}…${key.slice(-4)}`);
  });
});
