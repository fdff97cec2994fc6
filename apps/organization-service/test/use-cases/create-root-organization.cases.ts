import { generateApiKey, hashApiKey, isId } from '@pfs/contracts';
import {
  createOrganizationTestKit,
  FixedClock,
  outboxRowsFor,
  PinnedApiKeyGenerator,
  uniqueName,
  type OrganizationTestKit,
} from '../support/organization-test-kit';


describe('CreateRootOrganizationUseCase (real PostgreSQL)', () => {
  const clock = new FixedClock(new Date('2026-11-21T04:44:09.123Z'));
  const pinnedKeys: string[] = [];
  let kit: OrganizationTestKit;

  beforeAll(() => {
    kit = createOrganizationTestKit({ clock, generator: (config) => new PinnedApiKeyGenerator(config, pinnedKeys) });
  });

  afterAll(async () => {
    await kit.close();
  });

  it('stores the organization, its hashed first key and organization.created in one go', async () => {
    const name = uniqueName('Acme');
    const created = await kit.createRootOrganization.execute({ name, approved: true });

    expect(isId('organization', created.organizationId)).toBe(true);
    expect(isId('account', created.accountId)).toBe(true);
    expect(isId('apiKey', created.keyId)).toBe(true);
    expect(created.apiKey).toMatch(/^sk_test_[0-9a-f]{64}$/);
    expect(created.verificationStatus).toBe('APPROVED');

    const organization = await kit.organizations.findById(created.organizationId);
    expect(organization).toMatchObject({
      name,
      verificationStatus: 'APPROVED',
      primaryAccountId: created.accountId,
      parentOrganizationId: null,
      referrerOrganizationId: null,
      createdAt: clock.now(),
    });

    const key = await kit.prisma.apiKey.findUniqueOrThrow({ where: { id: created.keyId } });
    expect(key).toMatchObject({
      organizationId: created.organizationId,
      keyHash: hashApiKey(created.apiKey, kit.config.apiKeyPepper),
      hint: `sk_test_…${created.apiKey.slice(-4)}`,
      environment: 'sandbox',
      revokedAt: null,
    });
    // Only the hash is stored: the plain key appears nowhere in the row.
    expect(JSON.stringify(key)).not.toContain(created.apiKey.slice(8));

    const events = await outboxRowsFor(kit.prisma, created.organizationId);
    expect(events.map((event) => event.type)).toEqual(['organization.created', 'organization.standing.updated']);
    expect(events[0]).toMatchObject({ type: 'organization.created', publishedAt: null });
    expect(events[0].payload).toMatchObject({
      id: events[0].id,
      type: 'organization.created',
      source: 'organization',
      occurredAt: clock.now().toISOString(),
      data: {
        organizationId: created.organizationId,
        primaryAccountId: created.accountId,
        name,
        parentOrganizationId: null,
        referrerOrganizationId: null,
        createdAt: clock.now().toISOString(),
      },
    });
  });

  it('leaves an organization the operator did not approve PENDING', async () => {
    const created = await kit.createRootOrganization.execute({ name: uniqueName('Pending'), approved: false });
    expect(created.verificationStatus).toBe('PENDING');
    expect((await kit.organizations.findById(created.organizationId))?.verificationStatus).toBe('PENDING');
  });

  it('writes nothing when the key cannot be stored: no organization and no event', async () => {
    const duplicate = generateApiKey('sandbox');
    pinnedKeys.push(duplicate);
    const first = await kit.createRootOrganization.execute({ name: uniqueName('First'), approved: true });

    // The same plain key again: its hash violates the unique index after the organization
    // row was inserted in the same transaction.
    pinnedKeys.push(duplicate);
    const name = uniqueName('Second');
    await expect(kit.createRootOrganization.execute({ name, approved: true })).rejects.toMatchObject({
      name: 'ApiKeyCollisionError',
      code: 'internal_error',
    });

    expect(await kit.prisma.organization.count({ where: { name } })).toBe(0);
    expect(
      await kit.prisma.organizationOutboxEvent.count({ where: { payload: { path: ['data', 'name'], equals: name } } }),
    ).toBe(0);
    // The first organization and its key are untouched.
    expect(await kit.authenticate.execute({ keyHash: hashApiKey(duplicate, kit.config.apiKeyPepper) })).toEqual({
      organizationId: first.organizationId,
      keyId: first.keyId,
    });
  });

  it('refuses an empty name and writes nothing', async () => {
    await expect(kit.createRootOrganization.execute({ name: '  ', approved: true })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    expect(await kit.prisma.organization.count({ where: { name: { in: ['', '  '] } } })).toBe(0);
  });
});
