import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '@pfs/contracts';
import { Account } from '../../../domain/account';
import { AccountRepository } from '../../ports/account.repository';
import type { OpenPrimaryAccountCommand } from './open-primary-account.command';

/**
 * Every organization holds one primary account, under the id the organization service chose.
 * Two paths open it, whichever comes first: `accounts.open-primary`, which the organization
 * service sends before it answers the command that created the organization (so the account is
 * usable at once), and `organization.created`, the repair when that command did not get through.
 * The second finds it open and changes nothing.
 */
@Injectable()
export class OpenPrimaryAccountUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly accounts: AccountRepository,
    private readonly clock: Clock,
  ) {}

  execute(command: OpenPrimaryAccountCommand): Promise<{ opened: boolean }> {
    const account = Account.openPrimary(command.accountId, command.organizationId, this.clock.now());
    // In a transaction of its own (or the event inbox's), so the command log records the answer with it.
    return this.unitOfWork.run(async () => ({ opened: await this.accounts.openIfAbsent(account) }));
  }
}
