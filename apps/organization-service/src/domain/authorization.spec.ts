import { isDomainError } from '@pfs/contracts';
import { Authorization } from './authorization';

const base = {
  id: 'loa_0123456789abcdef0123456789abcdef',
  grantorOrganizationId: 'org_00000000000000000000000000000001',
  granteeOrganizationId: 'org_00000000000000000000000000000002',
  now: new Date('2026-11-21T04:00:00.000Z'),
};

describe('Authorization', () => {
  it('is ACTIVE when granted and involves exactly its two parties', () => {
    const authorization = Authorization.grant(base);
    expect(authorization.status).toBe('ACTIVE');
    expect(authorization.revokedAt).toBeNull();
    expect(authorization.involves(base.grantorOrganizationId)).toBe(true);
    expect(authorization.involves(base.granteeOrganizationId)).toBe(true);
    expect(authorization.involves('org_00000000000000000000000000000003')).toBe(false);
  });

  it('cannot be granted to the grantor itself', () => {
    let caught: unknown;
    try {
      Authorization.grant({ ...base, granteeOrganizationId: base.grantorOrganizationId });
    } catch (error) {
      caught = error;
    }
    expect(isDomainError(caught)).toBe(true);
    expect(caught).toMatchObject({ code: 'invalid_request', message: 'granteeOrganizationId: must be another organization than the caller' });
  });

  it('is REVOKED once revoked and keeps the first revocation time', () => {
    const first = new Date('2026-11-21T05:00:00.000Z');
    const revoked = Authorization.grant(base).revoke(first).revoke(new Date('2026-11-22T00:00:00.000Z'));
    expect(revoked.status).toBe('REVOKED');
    expect(revoked.revokedAt).toEqual(first);
  });
});
