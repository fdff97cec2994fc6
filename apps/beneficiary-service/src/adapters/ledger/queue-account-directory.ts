import { Injectable } from '@nestjs/common';
import { CommandBus, RemoteDomainError, withinCurrentCommand } from '@pfs/messaging';
import { AccountDirectory } from '../../application/ports/account-directory';

/**
 * Asks the ledger, which owns accounts, over its command queue (`accounts.get`): services share
 * no tables, and a copy fed by events could lag behind an account opened a moment ago. The
 * ledger answers `account_not_found` for another organization's account as for none.
 */
@Injectable()
export class QueueAccountDirectory extends AccountDirectory {
  constructor(private readonly bus: CommandBus) {
    super();
  }

  async isAccountOf(organizationId: string, accountId: string): Promise<boolean> {
    try {
      await this.bus.send('ledger', 'accounts.get', { organizationId, accountId }, withinCurrentCommand());
      return true;
    } catch (error) {
      if (error instanceof RemoteDomainError && error.code === 'account_not_found') return false;
      throw error;
    }
  }
}
