import { Injectable } from '@nestjs/common';
import { CommandBus, withinCurrentCommand } from '@pfs/messaging';
import { TradingTermsDirectory, type TradingTerms } from '../../application/ports/trading-terms-directory';

/**
 * The ledger's `trading-terms.get`: the account's status (none for another organization's) and
 * the pricing in force, the same GET /v1/fees shows, in one round trip: the spread a quote uses
 * comes from one source.
 */
@Injectable()
export class QueueTradingTermsDirectory extends TradingTermsDirectory {
  constructor(private readonly bus: CommandBus) {
    super();
  }

  async termsOf(organizationId: string, accountId: string): Promise<TradingTerms> {
    const terms = await this.bus.send('ledger', 'trading-terms.get', { organizationId, accountId }, withinCurrentCommand());
    return { accountStatus: terms.accountStatus, pricing: { spreadBps: terms.spreadBps, referrerShareBps: terms.referrerShareBps } };
  }
}
