import { newId } from '@pfs/contracts';
import { createAccessTestKit, type AccessTestKit } from '../support/access-test-kit';
import { FixedClock, outboxRowsFor, type OutboxRow } from '../support/organization-test-kit';


describe('SetVerificationStatusUseCase (real PostgreSQL)', () => {
  const clock = new FixedClock(new Date('2026-11-21T04:44:09.123Z'));
  let kit: AccessTestKit;
  let broker: string;

  const verificationEvents = async (organizationId: string): Promise<OutboxRow[]> =>
    (
      await kit.prisma.organizationOutboxEvent.findMany({
        where: { type: 'organization.verification.updated', payload: { path: ['data', 'organization_id'], equals: organizationId } },
      })
    ).sort((left, right) => sequenceOf(left) - sequenceOf(right));
  // In the order they were written: two commands a millisecond apart can share a creation time.
  const sequenceOf = (row: OutboxRow) => (row.payload as { sequence: number }).sequence;

  beforeAll(async () => {
    kit = createAccessTestKit({ clock });
    broker = await kit.rootOrganization('Broker');
  });

  afterAll(async () => {
    await kit.close();
  });

  it('changes a client’s status and writes the event with the spec’s snake_case data and the creator for routing', async () => {
    const client = await kit.clientOf(broker);
    clock.time = new Date('2026-11-21T05:00:00.000Z');
    const answer = await kit.setVerification.execute({
      callerOrganizationId: broker,
      organizationId: client,
      status: 'ON_HOLD',
      reason: '  Proof of address is unreadable ',
    });
    expect(answer).toMatchObject({ organizationId: client, verificationStatus: 'ON_HOLD' });
    expect(await kit.organizations.findById(client)).toMatchObject({
      verificationStatus: 'ON_HOLD',
      verificationReason: 'Proof of address is unreadable',
      updatedAt: clock.now(),
    });

    const [event] = await verificationEvents(client);
    expect(event.payload).toMatchObject({ type: 'organization.verification.updated', source: 'organization', occurredAt: '2026-11-21T05:00:00.000Z' });
    expect((event.payload as { data: unknown }).data).toEqual({
      object: 'organization',
      organization_id: client,
      status: 'ON_HOLD',
      previous_status: 'PENDING',
      reason: 'Proof of address is unreadable',
      occurred_at: '2026-11-21T05:00:00.000Z',
    });
    // Who receives it travels beside the data, which stays exactly the webhook body.
    expect((event.payload as { audience: unknown }).audience).toEqual({ organizationId: client, parentOrganizationId: broker, parentHoldsActiveLoa: false });
  });

  it('emits one event per change, with reason null outside ON_HOLD and RESUBMISSION_REQUIRED, and nothing for the same status again', async () => {
    const client = await kit.clientOf(broker);
    await kit.setVerification.execute({ callerOrganizationId: broker, organizationId: client, status: 'RESUBMISSION_REQUIRED', reason: 'Blurry ID' });
    await kit.setVerification.execute({ callerOrganizationId: broker, organizationId: client, status: 'APPROVED', reason: null });
    const again = await kit.setVerification.execute({ callerOrganizationId: broker, organizationId: client, status: 'APPROVED', reason: null });
    expect(again.verificationStatus).toBe('APPROVED');

    const data = (await verificationEvents(client)).map((event) => (event.payload as { data: Record<string, unknown> }).data);
    expect(data.map(({ status, previous_status, reason }) => ({ status, previous_status, reason }))).toEqual([
      { status: 'RESUBMISSION_REQUIRED', previous_status: 'PENDING', reason: 'Blurry ID' },
      { status: 'APPROVED', previous_status: 'RESUBMISSION_REQUIRED', reason: null },
    ]);
    expect((await kit.organizations.findById(client))?.verificationReason).toBeNull();
  });

  it('emits again when the status stays ON_HOLD with a new reason, so the organization learns what to fix now', async () => {
    const client = await kit.clientOf(broker);
    const hold = (reason: string) => kit.setVerification.execute({ callerOrganizationId: broker, organizationId: client, status: 'ON_HOLD', reason });
    await hold('Proof of address is unreadable');
    await hold('  Proof of address is unreadable ');
    const changed = await hold('Proof of address is older than 3 months');
    expect(changed).toMatchObject({ verificationStatus: 'ON_HOLD' });
    expect((await kit.organizations.findById(client))?.verificationReason).toBe('Proof of address is older than 3 months');
    const data = (await verificationEvents(client)).map((event) => (event.payload as { data: Record<string, unknown> }).data);
    expect(data.map(({ status, previous_status, reason }) => ({ status, previous_status, reason }))).toEqual([
      { status: 'ON_HOLD', previous_status: 'PENDING', reason: 'Proof of address is unreadable' },
      { status: 'ON_HOLD', previous_status: 'ON_HOLD', reason: 'Proof of address is older than 3 months' },
    ]);
  });

  it('lets an organization set its own status; a root organization’s event has no creator', async () => {
    const root = await kit.rootOrganization('Self');
    await kit.setVerification.execute({ callerOrganizationId: root, organizationId: root, status: 'PENDING', reason: null });
    const [event] = await verificationEvents(root);
    expect(event.payload).toMatchObject({ data: { status: 'PENDING', previous_status: 'APPROVED' }, audience: { organizationId: root, parentOrganizationId: null, parentHoldsActiveLoa: false } });
  });

  it.each([
    ['ON_HOLD', null, 'reason: is required when status is ON_HOLD'],
    ['RESUBMISSION_REQUIRED', '   ', 'reason: is required when status is RESUBMISSION_REQUIRED'],
    ['APPROVED', 'looks fine', 'reason: is only accepted when status is ON_HOLD or RESUBMISSION_REQUIRED'],
  ] as const)('refuses %s with reason %j and changes nothing', async (status, reason, message) => {
    const client = await kit.clientOf(broker);
    await expect(kit.setVerification.execute({ callerOrganizationId: broker, organizationId: client, status, reason })).rejects.toMatchObject({
      code: 'invalid_request',
      message,
    });
    expect((await kit.organizations.findById(client))?.verificationStatus).toBe('PENDING');
    expect(await verificationEvents(client)).toEqual([]);
  });

  it('answers organization_not_found for a stranger’s organization, the creator of the caller, and an unknown id', async () => {
    const client = await kit.clientOf(broker);
    const stranger = await kit.rootOrganization('Stranger');
    for (const [caller, target] of [
      [stranger, client],
      [client, broker],
      [broker, newId('organization')],
    ]) {
      await expect(
        kit.setVerification.execute({ callerOrganizationId: caller, organizationId: target, status: 'APPROVED', reason: null }),
      ).rejects.toMatchObject({ code: 'organization_not_found' });
    }
    expect(await verificationEvents(client)).toEqual([]);
    expect((await outboxRowsFor(kit.prisma, broker)).map((row) => row.type)).toEqual(['organization.created', 'organization.standing.updated']);
  });
});
