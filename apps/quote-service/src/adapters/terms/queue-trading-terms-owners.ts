import { Injectable } from '@nestjs/common';
import type { SubOrgTier } from '@pfs/contracts';
import { CommandBus, withinCurrentCommand } from '@pfs/messaging';
import type { AccountHolder } from '../../application/ports/trading-terms-directory';

/**
 * The owners' own answers, asked over their command queues (services share no tables): the
 * ledger's about an account, the organization service's about a tier. What the quote service's
 * copies fall back on (ProjectedTradingTermsDirectory). Within a command, a question carries its
 * request id and never outlives its deadline.
 */
@Injectable()
export class QueueTradingTermsOwners {
  constructor(private readonly bus: CommandBus) {}

  accountHolder(accountId: string): Promise<AccountHolder | null> {
    return this.bus.send('ledger', 'account-holders.get', { accountId }, withinCurrentCommand());
  }

  effectiveTier(organizationId: string): Promise<SubOrgTier | null> {
    return this.bus.send('organization', 'sub-org-tiers.get-effective', { organizationId }, withinCurrentCommand());
  }
}
