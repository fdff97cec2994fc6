import { createPrismaClient, PrismaTransactionHost, type PrismaClient } from '@pfs/persistence';
import { SecretBox } from '@pfs/platform';
import { testDatabaseUrl } from '@pfs/testing';
import { PrismaBeneficiaryRepository } from '../src/adapters/persistence/prisma-beneficiary.repository';
import { Beneficiary } from '../src/domain/beneficiary';

const ACCOUNT_NUMBER = '0532013000';
const IBAN = 'DE89370400440532013000';
const TAX_ID = '98765432109';

/* The adapter against the real schema: what a database reader could see, and the lookups the use cases rely on. */
describe('PrismaBeneficiaryRepository (real PostgreSQL)', () => {
  let prisma: PrismaClient;
  let repository: PrismaBeneficiaryRepository;
  const box = SecretBox.derive('test-beneficiary-key', 'beneficiary data');
  const run = Date.now().toString(16);
  const accountId = `acct_repo_${run}`;
  const organizationId = `org_repo_${run}`;
  let sequence = 0;
  const at = (seconds: number) => new Date(Date.UTC(2026, 10, 23, 8, 0, seconds));

  const bank = (body: Record<string, unknown> = {}) => {
    sequence += 1;
    return Beneficiary.createBank({
      id: `bene_repo_${run}_${sequence}`,
      organizationId,
      now: at(sequence),
      body: {
        accountId,
        nickname: 'Jane',
        bankName: 'Commerzbank',
        method: 'SEPA',
        currency: 'EUR',
        swiftCode: 'COBADEFFXXX',
        accountNumber: ACCOUNT_NUMBER,
        bankCountry: 'DE',
        iban: IBAN,
        taxId: TAX_ID,
        taxIdType: 'TIN',
        tags: ['payroll'],
        metadata: { ref: 'r-1' },
        ...body,
      },
    });
  };

  beforeAll(() => {
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 2, applicationName: 'beneficiary-repository-spec' });
    repository = new PrismaBeneficiaryRepository(new PrismaTransactionHost(prisma), box);
  });

  afterAll(async () => {
    await prisma.$queryRaw`DELETE FROM "beneficiary"."beneficiaries" WHERE organization_id = ${organizationId}`;
    await prisma.$disconnect();
  });

  it('stores the account number, IBAN and tax id sealed, in no readable column, and reads them back whole', async () => {
    const created = bank();
    await repository.insert(created);
    const rows = await prisma.$queryRaw<Array<Record<string, unknown>>>`SELECT * FROM "beneficiary"."beneficiaries" WHERE id = ${created.id}`;
    const stored = JSON.stringify(rows);
    for (const secret of [ACCOUNT_NUMBER, IBAN, TAX_ID]) expect(stored).not.toContain(secret);
    expect(rows[0]).toMatchObject({ account_number_last4: '3000', tax_id_type: 'TIN', swift_code: 'COBADEFFXXX' });
    expect(box.open(rows[0].account_number_sealed as string)).toBe(ACCOUNT_NUMBER);

    const read = await repository.findById(created.id);
    expect(read?.props).toEqual(created.props);
  });

  it('keeps a SERVICENET beneficiary’s receiving organization, and finds a second payee to it as a duplicate', async () => {
    sequence += 1;
    const receiver = { organizationId: `org_receiver_${run}`, handle: `globex-${run}`, organizationName: 'Globex Ltd' };
    const payee = Beneficiary.createServicenet({ id: `bene_repo_${run}_${sequence}`, organizationId, now: at(sequence), body: { accountId, nickname: 'Globex', handle: receiver.handle }, receiver });
    await repository.insert(payee);
    const rows = await prisma.$queryRaw<Array<Record<string, unknown>>>`SELECT * FROM "beneficiary"."beneficiaries" WHERE id = ${payee.id}`;
    expect(rows[0]).toMatchObject({ type: 'SERVICENET', servicenet_organization_id: receiver.organizationId, servicenet_handle: receiver.handle, servicenet_organization_name: 'Globex Ltd' });
    expect((await repository.findById(payee.id))?.props).toEqual(payee.props);
    sequence += 1;
    const again = Beneficiary.createServicenet({ id: `bene_repo_${run}_${sequence}`, organizationId, now: at(sequence), body: { accountId, nickname: 'Globex 2', handle: receiver.handle }, receiver });
    expect(await repository.earliestWithSameDestination(again)).toBe(payee.id);
  });

  it('finds the earliest same destination of the same account and type by fingerprint, and saves changes', async () => {
    const first = bank();
    await repository.insert(first);
    const second = bank({ nickname: 'Jane again' });
    const earliest = await repository.earliestWithSameDestination(second);
    expect(earliest).not.toBeNull();
    expect(earliest).not.toBe(second.id);
    const elsewhere = bank({ accountNumber: '1234567890', iban: null, method: 'WIRE', currency: 'USD' });
    expect(await repository.earliestWithSameDestination(elsewhere)).toBeNull();

    const changed = first.patch({ email: 'jane@example.com', tags: null }, 'sandbox', at(100));
    await repository.save(changed);
    expect((await repository.findById(first.id))?.props).toMatchObject({ identity: expect.objectContaining({ email: 'jane@example.com' }), tags: [], updatedAt: at(100) });
  });

  it('lists newest first with the filters, and only the organization’s', async () => {
    const archived = bank({ accountNumber: '5555666677', iban: null, method: 'WIRE', currency: 'USD' }).archive(at(200));
    await repository.insert(archived);
    const all = await repository.list(organizationId, {}, null, 100);
    expect(all.map((b) => b.createdAt.getTime())).toEqual([...all.map((b) => b.createdAt.getTime())].sort((a, b) => b - a));
    expect(all[0].id).toBe(archived.id);
    expect((await repository.list(organizationId, { status: 'ARCHIVED' }, null, 100)).map((b) => b.id)).toEqual([archived.id]);
    expect(await repository.list(organizationId, { type: 'CRYPTO' }, null, 100)).toEqual([]);
    expect(await repository.list(`${organizationId}_other`, {}, null, 100)).toEqual([]);
    const after = await repository.list(organizationId, {}, { createdAt: all[0].createdAt.toISOString(), id: all[0].id }, 100);
    expect(after.map((b) => b.id)).toEqual(all.slice(1).map((b) => b.id));
  });
});
