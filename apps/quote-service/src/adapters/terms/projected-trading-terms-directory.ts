import { Injectable } from '@nestjs/common';
import type { SubOrgTier } from '@pfs/contracts';
import { AccountHolders } from '../../application/ports/account-holders';
import { OrganizationTiers } from '../../application/ports/organization-tiers';
import { TradingTermsDirectory, type AccountHolder } from '../../application/ports/trading-terms-directory';
import { QueueTradingTermsOwners } from './queue-trading-terms-owners';

/**
 * Accounts and tiers from the quote service's own copies: a quote reads them instead of asking
 * the ledger. What a copy lacks is asked of its owner once and remembered. An account is served
 * from the copy only while the copy says ACTIVE: any other status, and an account never heard of,
 * is asked of the ledger, so a refusal never rests on the copy alone.
 */
@Injectable()
export class ProjectedTradingTermsDirectory extends TradingTermsDirectory {
  constructor(
    private readonly holders: AccountHolders,
    private readonly tiers: OrganizationTiers,
    private readonly owners: QueueTradingTermsOwners,
  ) {
    super();
  }

  async accountHolder(accountId: string): Promise<AccountHolder | null> {
    const copy = await this.holders.find(accountId);
    if (copy?.status === 'ACTIVE') return copy;
    const answer = await this.owners.accountHolder(accountId);
    if (answer) await this.holders.remember(answer);
    return answer;
  }

  async effectiveTier(organizationId: string): Promise<SubOrgTier | null> {
    const copy = await this.tiers.find(organizationId);
    if (copy !== undefined) return copy;
    const answer = await this.owners.effectiveTier(organizationId);
    await this.tiers.rememberIfAbsent(organizationId, answer);
    return answer;
  }
}
