import { PrismaClient } from '@pfs/persistence';
import { startServiceUnderTest, type ServiceUnderTest } from '@pfs/testing';
import type { CreateRootOrganizationUseCase as CreateRootOrganization } from '../../src/application/use-cases/create-root-organization/create-root-organization.use-case';
import { uniqueName } from '../support/organization-test-kit';
import { StandInLedger } from '../support/stand-in-ledger';

// The queue prefix that test/use-cases.spec.ts isolated for this jest file.
const prefix = process.env.QUEUE_PREFIX ?? '';

/** Servicenet over the queue against PostgreSQL: the unique handle under a race, case-insensitively. */
describe('servicenet commands (service level)', () => {
  let service: ServiceUnderTest;
  // A new organization's primary account is opened on the ledger: answered here.
  const ledger = new StandInLedger(process.env.REDIS_URL ?? '', prefix);
  let prisma: PrismaClient;
  let createOrganization: () => ReturnType<CreateRootOrganization['execute']>;
  let seq = 0;
  const meta = () => ({ requestId: 'req_00000000000000000000000000000002', commandId: `cmd-servicenet-${process.pid}-${Date.now()}-${seq++}` });
  const handle = (base: string) => `${base}-${process.pid}-${Date.now() % 1_000_000}`.slice(0, 32);

  beforeAll(async () => {
    const { OrganizationModule } = await import('../../src/organization.module');
    const { CreateRootOrganizationUseCase } = await import('../../src/application/use-cases/create-root-organization/create-root-organization.use-case');
    await ledger.start();
    service = await startServiceUnderTest(OrganizationModule);
    prisma = service.app.get(PrismaClient);
    createOrganization = () => service.app.get(CreateRootOrganizationUseCase).execute({ name: uniqueName('Servicenet'), approved: true });
  });

  afterAll(async () => {
    await service?.close();
    await ledger.stop();
  });

  async function enabledOrganization(): Promise<string> {
    const { organizationId } = await createOrganization();
    await service.bus.send('organization', 'servicenet.enable', { organizationId }, meta());
    return organizationId;
  }

  it('two organizations claiming one handle at once (different case): one wins, the other is servicenet_handle_taken', async () => {
    const wanted = handle('race');
    for (let round = 0; round < 5; round++) {
      const claimed = `${wanted.slice(0, 30)}${round}`;
      const [a, b] = await Promise.all([enabledOrganization(), enabledOrganization()]);
      const results = await Promise.allSettled([
        service.bus.send('organization', 'servicenet-handles.claim', { organizationId: a, handle: claimed }, meta()),
        service.bus.send('organization', 'servicenet-handles.claim', { organizationId: b, handle: claimed.toUpperCase() }, meta()),
      ]);
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost.map((r) => (r.reason as { code?: string }).code)).toEqual(['servicenet_handle_taken']);
      expect(await prisma.servicenetMembership.count({ where: { handle: claimed.toLowerCase() } })).toBe(1);
    }
  });

  it('resolves a handle in any case to its holder; get, disable and the rules over the queue', async () => {
    const organizationId = await enabledOrganization();
    const mine = handle('Mixed');
    expect(await service.bus.send('organization', 'servicenet-handles.claim', { organizationId, handle: mine }, meta())).toMatchObject({ enabled: true, handle: mine.toLowerCase() });
    const row = await prisma.servicenetMembership.findUnique({ where: { organizationId } });
    expect(row?.handle).toBe(mine.toLowerCase());
    expect(await service.bus.send('organization', 'servicenet-handles.resolve', { handle: mine.toUpperCase() }, meta())).toMatchObject({ organizationId, handle: mine.toLowerCase(), enabled: true });
    expect(await service.bus.send('organization', 'servicenet.disable', { organizationId }, meta())).toMatchObject({ enabled: false, handle: mine.toLowerCase() });
    expect(await service.bus.send('organization', 'servicenet.get', { organizationId }, meta())).toMatchObject({ object: 'servicenet', enabled: false });
    await expect(service.bus.send('organization', 'servicenet-handles.claim', { organizationId, handle: handle('other') }, meta())).rejects.toMatchObject({ code: 'servicenet_not_enabled' });
    await expect(service.bus.send('organization', 'servicenet-handles.resolve', { handle: handle('nobody') }, meta())).rejects.toMatchObject({ code: 'servicenet_handle_not_found' });
  });

  it('the database refuses a handle that is not lower-case', async () => {
    const { organizationId } = await createOrganization();
    await expect(prisma.servicenetMembership.create({ data: { organizationId, enabled: true, handle: 'UPPER', updatedAt: new Date() } })).rejects.toThrow(/servicenet_memberships_handle_format/);
  });
});
