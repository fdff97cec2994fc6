import { Injectable } from '@nestjs/common';
import { Clock } from '@pfs/contracts';
import { Account } from '../../../domain/account';
import { AccountRepository } from '../../ports/account.repository';
import type { OpenPrimaryAccountCommand } from './open-primary-account.command';

/** Reacts to `organization.created`: every organization holds one primary account. */
@Injectable()
export class OpenPrimaryAccountUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly clock: Clock,
  ) {}

  async execute(command: OpenPrimaryAccountCommand): Promise<{ opened: boolean }> {
    const account = Account.openPrimary(command.accountId, command.organizationId, this.clock.now());
    return { opened: await this.accounts.openIfAbsent(account) };
  }
}
