import { isDomainError } from '@pfs/contracts';
import { MAX_ORGANIZATION_NAME_LENGTH, Organization } from './organization';

const base = {
  id: 'org_0123456789abcdef0123456789abcdef',
  primaryAccountId: 'acct_0123456789abcdef0123456789abcdef',
  now: new Date('2026-11-21T04:44:09.123Z'),
};

describe('Organization.createRoot', () => {
  it('is APPROVED when the operator approves it, PENDING otherwise', () => {
    expect(Organization.createRoot({ ...base, name: 'Acme', approved: true }).verificationStatus).toBe('APPROVED');
    expect(Organization.createRoot({ ...base, name: 'Acme', approved: false }).verificationStatus).toBe('PENDING');
  });

  it('has no parent, referrer or profile, and keeps the chosen primary account id', () => {
    const organization = Organization.createRoot({ ...base, name: '  Acme Ltd  ', approved: false });
    expect(organization).toMatchObject({
      id: base.id,
      name: 'Acme Ltd',
      entityType: null,
      country: null,
      email: null,
      verificationReason: null,
      parentOrganizationId: null,
      referrerOrganizationId: null,
      primaryAccountId: base.primaryAccountId,
      createdAt: base.now,
      updatedAt: base.now,
    });
  });

  it.each([
    ['', 'name: must not be empty'],
    ['   ', 'name: must not be empty'],
    ['x'.repeat(MAX_ORGANIZATION_NAME_LENGTH + 1), `name: must be at most ${MAX_ORGANIZATION_NAME_LENGTH} characters`],
  ])('refuses the name %j', (name, message) => {
    let caught: unknown;
    try {
      Organization.createRoot({ ...base, name, approved: true });
    } catch (error) {
      caught = error;
    }
    expect(isDomainError(caught)).toBe(true);
    expect(caught).toMatchObject({ code: 'invalid_request', message });
  });
});

describe('Organization.createClient and changeVerification', () => {
  const client = () =>
    Organization.createClient({
      ...base,
      name: ' Client GmbH ',
      entityType: 'BUSINESS',
      country: 'DE',
      email: null,
      parentOrganizationId: 'org_ffffffffffffffffffffffffffffffff',
    });

  it('creates a PENDING client of its creator, visible to the creator and itself only', () => {
    const organization = client();
    expect(organization).toMatchObject({ name: 'Client GmbH', verificationStatus: 'PENDING', referrerOrganizationId: null });
    expect(organization.isVisibleTo('org_ffffffffffffffffffffffffffffffff')).toBe(true);
    expect(organization.isVisibleTo(base.id)).toBe(true);
    expect(organization.isVisibleTo('org_eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee')).toBe(false);
  });

  it('reports a change with the status it left, and no change for the same status and reason', () => {
    const later = new Date('2026-11-22T00:00:00.000Z');
    const change = client().changeVerification('ON_HOLD', ' Missing document ', later);
    expect(change?.previousStatus).toBe('PENDING');
    expect(change?.organization).toMatchObject({ verificationStatus: 'ON_HOLD', verificationReason: 'Missing document', updatedAt: later });
    expect(change?.organization.changeVerification('ON_HOLD', '  Missing document', later)).toBeNull();
    // A new reason under the same status is a change, from that status.
    const newReason = change?.organization.changeVerification('ON_HOLD', 'Another reason', later);
    expect(newReason).toMatchObject({ previousStatus: 'ON_HOLD', organization: { verificationStatus: 'ON_HOLD', verificationReason: 'Another reason' } });
    const approved = client().changeVerification('APPROVED', null, later)?.organization;
    expect(approved?.changeVerification('APPROVED', null, later)).toBeNull();
    expect(change?.organization.changeVerification('APPROVED', null, later)?.organization.verificationReason).toBeNull();
  });
});
