import { createHash } from 'node:crypto';
import { Clock, newId, RandomIdGenerator, RandomSource } from '@pfs/contracts';
import { PrismaEventOutbox } from '@pfs/messaging';
import { createPrismaClient, PrismaTransactionHost, PrismaUnitOfWork, type PrismaClient } from '@pfs/persistence';
import { testDatabaseUrl } from '@pfs/testing';
import { PrismaAccountRepository } from '../../src/adapters/persistence/prisma-account.repository';
import { PrismaFundingMethodRepository } from '../../src/adapters/persistence/prisma-funding-method.repository';
import { GetFundingMethodUseCase } from '../../src/application/use-cases/get-funding-method/get-funding-method.use-case';
import { ProvisionFundingMethodsUseCase } from '../../src/application/use-cases/provision-funding-methods/provision-funding-methods.use-case';
import { Account } from '../../src/domain/account';

/** A deterministic byte stream from a seed: provisioning is reproducible under test. */
export class SeededRandomSource extends RandomSource {
  private counter = 0;

  constructor(private readonly seed: string) {
    super();
  }

  bytes(length: number): Uint8Array {
    const out = Buffer.alloc(length);
    for (let filled = 0; filled < length; filled += 32) {
      createHash('sha256').update(`${this.seed}:${this.counter++}`).digest().copy(out, filled);
    }
    return Uint8Array.from(out);
  }
}

export class FixedClock extends Clock {
  constructor(public time: Date) {
    super();
  }

  now(): Date {
    return new Date(this.time);
  }
}

/** The funding-method use cases over the real adapters and the test database. */
export interface FundingMethodTestKit {
  prisma: PrismaClient;
  accounts: PrismaAccountRepository;
  clock: FixedClock;
  provision: ProvisionFundingMethodsUseCase;
  getFundingMethod: GetFundingMethodUseCase;
  /** A fresh organization with its primary account (and optionally more accounts). */
  openOrganization(extraAccounts?: number): Promise<{ organizationId: string; primaryId: string; otherIds: string[] }>;
  close(): Promise<void>;
}

export function createFundingMethodTestKit(seed: string): FundingMethodTestKit {
  const prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 8, applicationName: 'ledger-funding-test' });
  const host = new PrismaTransactionHost(prisma);
  const accounts = new PrismaAccountRepository(host);
  const methods = new PrismaFundingMethodRepository(host);
  const clock = new FixedClock(new Date('2026-11-21T04:44:09.123Z'));
  return {
    prisma,
    accounts,
    clock,
    provision: new ProvisionFundingMethodsUseCase(
      new PrismaUnitOfWork(host),
      accounts,
      methods,
      new SeededRandomSource(seed),
      new RandomIdGenerator(),
      new PrismaEventOutbox(host, 'ledger', 'ledger', clock),
      clock,
    ),
    getFundingMethod: new GetFundingMethodUseCase(methods),
    async openOrganization(extraAccounts = 0) {
      const organizationId = newId('organization');
      const primaryId = newId('account');
      await accounts.openIfAbsent(Account.openPrimary(primaryId, organizationId, new Date()));
      const otherIds: string[] = [];
      for (let index = 0; index < extraAccounts; index++) {
        const id = newId('account');
        const at = new Date(Date.now() + index + 1);
        await accounts.openIfAbsent(new Account(id, organizationId, `Secondary ${index}`, null, false, 'ACTIVE', [], [], at, at));
        otherIds.push(id);
      }
      return { organizationId, primaryId, otherIds };
    },
    close: () => prisma.$disconnect(),
  };
}
