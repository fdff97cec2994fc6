import { InMemoryEventOutbox, InMemoryUnitOfWork, ManualClock, SeededRandomSource, SequentialIdGenerator } from '@pfs/test-doubles';
import { GetFundingMethodUseCase } from '../../../src/application/use-cases/get-funding-method/get-funding-method.use-case';
import { ProvisionFundingMethodsUseCase } from '../../../src/application/use-cases/provision-funding-methods/provision-funding-methods.use-case';
import { Account } from '../../../src/domain/account';
import { InMemoryAccountRepository } from './in-memory-account.repository';
import { InMemoryFundingMethodRepository } from './in-memory-funding-method.repository';

/** The ledger's funding-method use cases wired in memory: no database, seeded randomness, time standing still. */
export function fundingMethodInMemory() {
  const clock = new ManualClock();
  const ids = new SequentialIdGenerator();
  const outbox = new InMemoryEventOutbox(clock);
  const accounts = new InMemoryAccountRepository();
  const fundingMethods = new InMemoryFundingMethodRepository(accounts);
  return {
    clock,
    outbox,
    accounts,
    fundingMethods,
    provision: new ProvisionFundingMethodsUseCase(new InMemoryUnitOfWork(), accounts, fundingMethods, new SeededRandomSource('ledger'), ids, outbox, clock),
    getFundingMethod: new GetFundingMethodUseCase(fundingMethods),
    /** An organization with its primary account and `others` secondary accounts. */
    async openOrganization(others = 0) {
      const organizationId = ids.next('organization');
      const primaryId = ids.next('account');
      await accounts.openIfAbsent(Account.openPrimary(primaryId, organizationId, clock.now()));
      const otherIds: string[] = [];
      for (let index = 0; index < others; index++) {
        const id = ids.next('account');
        await accounts.openIfAbsent(new Account(id, organizationId, `Account ${index + 1}`, null, false, 'ACTIVE', [], [], clock.now(), clock.now()));
        otherIds.push(id);
      }
      return { organizationId, primaryId, otherIds };
    },
  };
}

export type FundingMethodInMemory = ReturnType<typeof fundingMethodInMemory>;
