import { Clock, newId } from '@pfs/contracts';
import { InMemoryUnitOfWork } from '@pfs/test-doubles';
import { InMemoryAccountRepository } from '../../../../test/support/in-memory/in-memory-account.repository';
import { Account } from '../../../domain/account';
import { OpenPrimaryAccountUseCase } from './open-primary-account.use-case';

class FixedClock extends Clock {
  constructor(private readonly at: Date) {
    super();
  }
  now(): Date {
    return this.at;
  }
}

describe('OpenPrimaryAccountUseCase', () => {
  it('opens the primary account under the id the organization service chose, once', async () => {
    const accounts = new InMemoryAccountRepository();
    const at = new Date('2026-11-21T04:44:09.123Z');
    const useCase = new OpenPrimaryAccountUseCase(new InMemoryUnitOfWork(), accounts, new FixedClock(at));
    const command = { organizationId: newId('organization'), accountId: newId('account') };

    await expect(useCase.execute(command)).resolves.toEqual({ opened: true });
    await expect(useCase.execute(command)).resolves.toEqual({ opened: false });

    expect(accounts.accounts).toEqual([Account.openPrimary(command.accountId, command.organizationId, at)]);
  });
});
