import { isId, newId } from '@pfs/contracts';
import { createAccessTestKit, type AccessTestKit } from '../support/access-test-kit';
import { FixedClock, outboxRowsFor, uniqueName } from '../support/organization-test-kit';


describe('CreateOrganizationUseCase (real PostgreSQL)', () => {
  const clock = new FixedClock(new Date('2026-11-21T04:44:09.123Z'));
  let kit: AccessTestKit;
  let broker: string;

  beforeAll(async () => {
    kit = createAccessTestKit({ clock });
    broker = await kit.rootOrganization('Broker');
  });

  afterAll(async () => {
    await kit.close();
  });

  it('stores a PENDING client of the caller and writes organization.created for the ledger in one go', async () => {
    const name = uniqueName('Client');
    const created = await kit.createClient.execute({
      callerOrganizationId: broker,
      name: `  ${name} `,
      entityType: 'INDIVIDUAL',
      country: 'FR',
      email: ' jane@example.com ',
    });

    expect(created).toEqual({
      object: 'organization',
      organizationId: expect.any(String),
      name,
      entityType: 'INDIVIDUAL',
      country: 'FR',
      email: 'jane@example.com',
      verificationStatus: 'PENDING',
      parentOrganizationId: broker,
      referrerOrganizationId: null,
      primaryAccountId: expect.any(String),
      createdAt: clock.now().toISOString(),
    });
    expect(isId('organization', created.organizationId)).toBe(true);
    expect(isId('account', created.primaryAccountId)).toBe(true);
    expect(await kit.organizations.findById(created.organizationId)).toMatchObject({ name, parentOrganizationId: broker, verificationReason: null });

    const events = await outboxRowsFor(kit.prisma, created.organizationId);
    expect(events.map((event) => event.type)).toEqual(['organization.created', 'organization.standing.updated']);
    expect(events[0].payload).toMatchObject({
      data: {
        organizationId: created.organizationId,
        primaryAccountId: created.primaryAccountId,
        name,
        parentOrganizationId: broker,
        referrerOrganizationId: null,
      },
    });
    // Nothing is granted yet: every catalog asset is AVAILABLE to the client.
    const assets = await kit.listAssets.execute({ organizationId: created.organizationId });
    expect(assets.map((asset) => asset.status)).toEqual(Array(6).fill('AVAILABLE'));
  });

  it.each([
    [{ name: ' ' }, 'name: must not be empty'],
    [{ country: 'de' }, 'country: must be an ISO 3166-1 alpha-2 code in capitals, e.g. DE'],
    [{ email: 'not-an-email' }, 'email: must be an email address'],
  ])('refuses %j and writes nothing', async (override, message) => {
    const name = uniqueName('Refused');
    await expect(
      kit.createClient.execute({ callerOrganizationId: broker, name, entityType: 'BUSINESS', country: 'DE', email: null, ...override }),
    ).rejects.toMatchObject({ code: 'invalid_request', message });
    expect(await kit.prisma.organization.count({ where: { name } })).toBe(0);
  });

  it('answers organization_not_found when the caller no longer exists', async () => {
    const ghost = newId('organization');
    await expect(
      kit.createClient.execute({ callerOrganizationId: ghost, name: uniqueName(), entityType: 'BUSINESS', country: 'DE', email: null }),
    ).rejects.toMatchObject({ code: 'organization_not_found' });
    expect(await kit.prisma.organization.count({ where: { parentOrganizationId: ghost } })).toBe(0);
  });
});
