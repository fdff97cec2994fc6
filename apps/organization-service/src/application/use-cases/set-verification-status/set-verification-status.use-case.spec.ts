import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('SetVerificationStatusUseCase (in memory)', () => {
  let org: OrganizationInMemory;
  let broker: string;
  let client: string;

  beforeEach(async () => {
    org = organizationInMemory();
    broker = (await org.root('Broker')).organizationId;
    client = (await org.createOrganization.execute({ callerOrganizationId: broker, name: 'Client', entityType: 'INDIVIDUAL', country: 'FR', email: 'c@example.com' }))
      .organizationId;
  });

  const set = (status: 'PENDING' | 'APPROVED' | 'ON_HOLD' | 'RESUBMISSION_REQUIRED', reason: string | null, organizationId = client, callerOrganizationId = broker) =>
    org.setVerificationStatus.execute({ callerOrganizationId, organizationId, status, reason });
  const updates = () => org.outbox.events.filter((event) => event.type === 'organization.verification.updated');

  it('stores a client’s new status and trimmed reason, and appends the snake_case event with the creator for routing', async () => {
    org.clock.set('2026-11-23T09:00:00.000Z');
    expect(await set('ON_HOLD', '  Proof of address is unreadable ')).toMatchObject({ organizationId: client, verificationStatus: 'ON_HOLD' });
    expect(await org.organizations.findById(client)).toMatchObject({ verificationStatus: 'ON_HOLD', verificationReason: 'Proof of address is unreadable', updatedAt: org.clock.now() });
    expect(updates()).toEqual([
      expect.objectContaining({
        audience: { organizationId: client, parentOrganizationId: broker, parentHoldsActiveLoa: false },
        data: {
          object: 'organization',
          organization_id: client,
          status: 'ON_HOLD',
          previous_status: 'PENDING',
          reason: 'Proof of address is unreadable',
          occurred_at: '2026-11-23T09:00:00.000Z',
        },
      }),
    ]);
  });

  it('appends one event per change (again for a new ON_HOLD reason), none for the same status and reason again', async () => {
    await set('RESUBMISSION_REQUIRED', 'Blurry ID');
    await set('ON_HOLD', 'Unreadable');
    await set('ON_HOLD', ' Unreadable ');
    await set('ON_HOLD', 'Too old');
    await set('APPROVED', null);
    expect((await set('APPROVED', null)).verificationStatus).toBe('APPROVED');
    expect(org.outbox.dataOf('organization.verification.updated').map(({ status, previous_status, reason }) => ({ status, previous_status, reason }))).toEqual([
      { status: 'RESUBMISSION_REQUIRED', previous_status: 'PENDING', reason: 'Blurry ID' },
      { status: 'ON_HOLD', previous_status: 'RESUBMISSION_REQUIRED', reason: 'Unreadable' },
      { status: 'ON_HOLD', previous_status: 'ON_HOLD', reason: 'Too old' },
      { status: 'APPROVED', previous_status: 'ON_HOLD', reason: null },
    ]);
    expect((await org.organizations.findById(client))?.verificationReason).toBeNull();
  });

  it('says in the audience whether the client holds an ACTIVE LOA for its creator when the status changes', async () => {
    await org.createAuthorization.execute({ grantorOrganizationId: client, granteeOrganizationId: broker });
    await set('APPROVED', null);
    expect(updates()[0]).toMatchObject({ audience: { organizationId: client, parentOrganizationId: broker, parentHoldsActiveLoa: true } });
  });

  it('lets a root organization set its own status; its event has no creator', async () => {
    await set('PENDING', null, broker, broker);
    expect(updates()).toEqual([expect.objectContaining({ data: expect.objectContaining({ status: 'PENDING', previous_status: 'APPROVED' }), audience: { organizationId: broker, parentOrganizationId: null, parentHoldsActiveLoa: false } })]);
  });

  it.each([
    ['ON_HOLD', null, 'reason: is required when status is ON_HOLD'],
    ['RESUBMISSION_REQUIRED', '   ', 'reason: is required when status is RESUBMISSION_REQUIRED'],
    ['APPROVED', 'looks fine', 'reason: is only accepted when status is ON_HOLD or RESUBMISSION_REQUIRED'],
  ] as const)('refuses %s with reason %j with invalid_request and records nothing', async (status, reason, message) => {
    await expect(set(status, reason)).rejects.toMatchObject({ code: 'invalid_request', message });
    expect((await org.organizations.findById(client))?.verificationStatus).toBe('PENDING');
    expect(updates()).toEqual([]);
  });

  it('answers organization_not_found for a stranger’s organization, the caller’s creator and an unknown id, recording nothing', async () => {
    const stranger = (await org.root('Stranger')).organizationId;
    for (const [caller, target] of [[stranger, client], [client, broker], [broker, 'org_ffffffffffffffffffffffffffffffff']]) {
      await expect(set('APPROVED', null, target, caller)).rejects.toMatchObject({ code: 'organization_not_found' });
    }
    expect(updates()).toEqual([]);
    expect((await org.organizations.findById(client))?.verificationStatus).toBe('PENDING');
  });
});
