import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork, type AccountView } from '@pfs/contracts';
import { AccountNotFoundError } from '../../../domain/ledger-errors';
import { presentAccount } from '../../account.presenter';
import { AccountRepository } from '../../ports/account.repository';
import type { UpdateAccountCommand } from './update-account.command';

/** PATCH /v1/accounts/{id}: renames the account or changes its description. */
@Injectable()
export class UpdateAccountUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly accounts: AccountRepository,
    private readonly clock: Clock,
  ) {}

  execute(command: UpdateAccountCommand): Promise<AccountView> {
    return this.unitOfWork.run(async () => {
      // The lock orders two concurrent renames: the later one wins, and each answers what it wrote.
      const owner = await this.accounts.lockOwner(command.accountId);
      if (owner !== command.organizationId) throw new AccountNotFoundError(command.accountId);
      const account = await this.accounts.findById(command.accountId);
      if (!account) throw new AccountNotFoundError(command.accountId);
      const updated = account.withDetails({ name: command.name, description: command.description }, this.clock.now());
      await this.accounts.saveDetails(updated);
      return presentAccount(updated);
    });
  }
}
