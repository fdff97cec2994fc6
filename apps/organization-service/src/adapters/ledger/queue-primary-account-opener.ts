import { Injectable } from '@nestjs/common';
import { CommandBus, withinCurrentCommand } from '@pfs/messaging';
import { PrimaryAccountOpener, type PrimaryAccount } from '../../application/ports/primary-account-opener';

/**
 * `accounts.open-primary` on the ledger's queue. Its command id is derived from the organization,
 * so every repeat (a re-delivered job, a retried command) is answered from the ledger's command
 * log. Within a command it never outlives the command's deadline; a ledger that does not answer
 * is `ServiceUnavailableError`, which the sender's client sees as a 503 naming the ledger.
 */
@Injectable()
export class QueuePrimaryAccountOpener extends PrimaryAccountOpener {
  constructor(private readonly bus: CommandBus) {
    super();
  }

  async open(account: PrimaryAccount): Promise<void> {
    await this.bus.send('ledger', 'accounts.open-primary', account, { ...withinCurrentCommand(), commandId: primaryAccountCommandId(account.organizationId) });
  }
}

/** One command id per organization: the ledger opens its primary account once, however often asked. */
export function primaryAccountCommandId(organizationId: string): string {
  return `primary-account:${organizationId}`;
}
