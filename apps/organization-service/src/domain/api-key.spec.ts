import { ApiKey } from './api-key';

const issuedAt = new Date('2026-11-21T04:00:00.000Z');

function issue(): ApiKey {
  return ApiKey.issue({
    id: 'key_0123456789abcdef0123456789abcdef',
    organizationId: 'org_0123456789abcdef0123456789abcdef',
    keyHash: 'a'.repeat(64),
    hint: 'sk_test_…beef',
    environment: 'sandbox',
    now: issuedAt,
  });
}

describe('ApiKey', () => {
  it('is active when issued', () => {
    const key = issue();
    expect(key.isActive).toBe(true);
    expect(key.revokedAt).toBeNull();
    expect(key.createdAt).toEqual(issuedAt);
  });

  it('records when it was revoked and is no longer active', () => {
    const revokedAt = new Date('2026-11-21T05:00:00.000Z');
    const revoked = issue().revoke(revokedAt);
    expect(revoked.isActive).toBe(false);
    expect(revoked.revokedAt).toEqual(revokedAt);
    expect(revoked.keyHash).toBe('a'.repeat(64));
  });

  it('keeps the first revocation time when revoked again', () => {
    const first = new Date('2026-11-21T05:00:00.000Z');
    const revoked = issue().revoke(first).revoke(new Date('2026-11-22T00:00:00.000Z'));
    expect(revoked.revokedAt).toEqual(first);
  });
});
