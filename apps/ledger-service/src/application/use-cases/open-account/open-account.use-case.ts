import { Injectable } from '@nestjs/common';
import { Clock, IdGenerator, UnitOfWork, type AccountView } from '@pfs/contracts';
import { Account } from '../../../domain/account';
import { presentAccount } from '../../account.presenter';
import { AccountRepository } from '../../ports/account.repository';
import type { OpenAccountCommand } from './open-account.command';

/** POST /v1/accounts: a further, non-primary account of the organization, with no balances yet. */
@Injectable()
export class OpenAccountUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly accounts: AccountRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute(command: OpenAccountCommand): Promise<AccountView> {
    return this.unitOfWork.run(async () => {
      const account = Account.open(this.ids.next('account'), command.organizationId, command.name, command.description, this.clock.now());
      await this.accounts.openIfAbsent(account);
      return presentAccount(account);
    });
  }
}
