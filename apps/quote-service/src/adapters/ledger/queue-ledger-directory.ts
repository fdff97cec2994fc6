import { Injectable } from '@nestjs/common';
import type { AccountStatus } from '@pfs/contracts';
import { CommandBus, RemoteDomainError, withinCurrentCommand } from '@pfs/messaging';
import { AccountDirectory } from '../../application/ports/account-directory';
import { PricingDirectory, type EffectivePricing } from '../../application/ports/pricing-directory';

/**
 * The ledger's answers over its queue: accounts (`accounts.get`, `account_not_found` for another
 * organization's as for none) and the effective pricing (`fees.get`, the tier in force from the
 * organization service or the platform default): the spread a quote uses is the one GET
 * /v1/fees shows, from one source.
 */
@Injectable()
export class QueueAccountDirectory extends AccountDirectory {
  constructor(private readonly bus: CommandBus) {
    super();
  }

  async statusOf(organizationId: string, accountId: string): Promise<AccountStatus | null> {
    try {
      return (await this.bus.send('ledger', 'accounts.get', { organizationId, accountId }, withinCurrentCommand())).status;
    } catch (error) {
      if (error instanceof RemoteDomainError && error.code === 'account_not_found') return null;
      throw error;
    }
  }
}

@Injectable()
export class QueuePricingDirectory extends PricingDirectory {
  constructor(private readonly bus: CommandBus) {
    super();
  }

  async pricingOf(organizationId: string): Promise<EffectivePricing> {
    const fees = await this.bus.send('ledger', 'fees.get', { organizationId }, withinCurrentCommand());
    return { spreadBps: fees.spreadBps, referrerShareBps: fees.referrerShareBps };
  }
}
