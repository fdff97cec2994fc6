import { newId } from '@pfs/contracts';
import { createPrismaClient, PrismaTransactionHost, type PrismaClient } from '@pfs/persistence';
import { statementsDuring, testDatabaseUrl } from '@pfs/testing';
import { PrismaAccountRepository } from '../src/adapters/persistence/prisma-account.repository';
import { PrismaFundingMethodRepository } from '../src/adapters/persistence/prisma-funding-method.repository';
import { PrismaOrganizationStandings } from '../src/adapters/persistence/prisma-organization-standings';
import { Account } from '../src/domain/account';

/*
 * The hot reads (an account for GET /v1/accounts/{id}, a deposit target for every faucet call, an
 * account's owner, an organization's standing for every money command) made
 * together share one statement, and each caller still gets its own answer.
 */
describe('hot reads made together (real PostgreSQL)', () => {
  let prisma: PrismaClient;
  let accounts: PrismaAccountRepository;
  let methods: PrismaFundingMethodRepository;
  let standings: PrismaOrganizationStandings;
  let host: PrismaTransactionHost;
  const organizationId = newId('organization');
  const now = new Date(Date.UTC(2026, 10, 27, 9, 0, 0));
  const opened: Account[] = [];

  beforeAll(async () => {
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 4, applicationName: 'account-reads-spec' });
    host = new PrismaTransactionHost(prisma);
    accounts = new PrismaAccountRepository(host);
    methods = new PrismaFundingMethodRepository(host);
    standings = new PrismaOrganizationStandings(host);
    for (let index = 0; index < 3; index++) {
      const account = new Account(newId('account'), organizationId, `Reads ${index}`, null, index === 0, 'ACTIVE', [], [], now, now);
      await accounts.openIfAbsent(account);
      opened.push(account);
    }
    // USDC on the first two accounts, BTC on the first.
    await methods.insertAll([
      { id: newId('fundingMethod'), accountId: opened[0]!.id, asset: 'USDC', type: 'CRYPTO_ADDRESS', chainName: 'ETHEREUM_SEPOLIA', address: '0x01', bank: null, createdAt: now },
      { id: newId('fundingMethod'), accountId: opened[0]!.id, asset: 'BTC', type: 'CRYPTO_ADDRESS', chainName: 'BITCOIN_TESTNET', address: 'tb1q01', bank: null, createdAt: now },
      { id: newId('fundingMethod'), accountId: opened[1]!.id, asset: 'USDC', type: 'CRYPTO_ADDRESS', chainName: 'ETHEREUM_SEPOLIA', address: '0x02', bank: null, createdAt: now },
    ]);
  });

  afterAll(async () => {
    await prisma?.$disconnect();
  });

  it('accounts read together: one statement, each its own account (a missing one null, a repeat answered twice)', async () => {
    const ids = [opened[2]!.id, 'acc_missing', opened[0]!.id, opened[2]!.id];
    let found: Array<Account | null> = [];
    const sent = await statementsDuring(async () => {
      found = await Promise.all(ids.map((id) => accounts.findById(id)));
    });
    expect(sent).toHaveLength(1);
    expect(found.map((account) => account?.id ?? null)).toEqual([opened[2]!.id, null, opened[0]!.id, opened[2]!.id]);
    expect(found[2]?.fundingMethods.map((method) => method.asset).sort()).toEqual(['BTC', 'USDC']);
    expect(found[0]).not.toBe(found[3]);
  });

  it('deposit targets read together: one statement, each with the methods of its own asset', async () => {
    const targets = [
      { accountId: opened[0]!.id, asset: 'USDC' },
      { accountId: opened[0]!.id, asset: 'BTC' },
      { accountId: opened[1]!.id, asset: 'BTC' },
      { accountId: 'acc_missing', asset: 'USDC' },
      { accountId: opened[1]!.id, asset: 'USDC' },
    ];
    let found: Awaited<ReturnType<PrismaFundingMethodRepository['findDepositTarget']>>[] = [];
    const sent = await statementsDuring(async () => {
      found = await Promise.all(targets.map((target) => methods.findDepositTarget(target.accountId, target.asset)));
    });
    expect(sent).toHaveLength(1);
    expect(found.map((target) => target && { organizationId: target.organizationId, addresses: target.methods.map((method) => method.address) })).toEqual([
      { organizationId, addresses: ['0x01'] },
      { organizationId, addresses: ['tb1q01'] },
      { organizationId, addresses: [] },
      null,
      { organizationId, addresses: ['0x02'] },
    ]);
  });

  it('owners and standings read together: one statement each, each caller its own answer; inside a transaction, on it', async () => {
    const [approved, pending] = [newId('organization'), newId('organization')];
    const standing = (id: string, verificationStatus: 'APPROVED' | 'PENDING') => ({ organizationId: id, verificationStatus, parentOrganizationId: null, parentHoldsActiveLoa: false, referrerOrganizationId: null });
    await standings.apply(standing(approved, 'APPROVED'), 1);
    await standings.apply(standing(pending, 'PENDING'), 1);

    let answers: unknown[] = [];
    const sent = await statementsDuring(async () => {
      answers = await Promise.all([
        accounts.findOwnership(opened[1]!.id),
        accounts.findOwnership('acc_missing'),
        standings.find(pending),
        standings.find('org_missing'),
        standings.find(approved),
      ]);
    });
    expect(sent).toHaveLength(2);
    expect(answers).toEqual([
      { organizationId, status: 'ACTIVE' },
      null,
      standing(pending, 'PENDING'),
      null,
      standing(approved, 'APPROVED'),
    ]);
    // Inside a unit of work the read is the unit's own: it sees the unit's uncommitted write.
    const inside = await host.run(async () => {
      await standings.apply({ ...standing(pending, 'APPROVED') }, 2);
      return standings.find(pending);
    });
    expect(inside?.verificationStatus).toBe('APPROVED');
  });
});
