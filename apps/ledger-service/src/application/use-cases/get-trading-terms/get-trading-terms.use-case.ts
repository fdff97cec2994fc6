import { Injectable } from '@nestjs/common';
import type { TradingTermsView } from '@pfs/contracts';
import { pricingInForce } from '../../pricing-in-force';
import { AccountRepository } from '../../ports/account.repository';
import { LedgerSettings } from '../../ports/ledger-settings';
import { OrganizationDirectory } from '../../ports/organization-directory';
import type { GetTradingTermsQuery } from './get-trading-terms.query';

/**
 * What POST /v1/quotes needs from the ledger, in one question: whether the account is the
 * organization's and in which status (another organization's answers as none), and the pricing
 * in force, the same GET /v1/fees shows. Both are read from the ledger's own tables.
 */
@Injectable()
export class GetTradingTermsUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly directory: OrganizationDirectory,
    private readonly settings: LedgerSettings,
  ) {}

  async execute(query: GetTradingTermsQuery): Promise<TradingTermsView> {
    const [account, tier] = await Promise.all([this.accounts.findOwnership(query.accountId), this.directory.effectiveTier(query.organizationId)]);
    return {
      accountStatus: account?.organizationId === query.organizationId ? account.status : null,
      ...pricingInForce(tier, this.settings),
    };
  }
}
