import { Injectable } from '@nestjs/common';
import { findAsset, toAmountString, type FeesView } from '@pfs/contracts';
import { pricingInForce } from '../../pricing-in-force';
import { LedgerSettings } from '../../ports/ledger-settings';
import { OrganizationDirectory } from '../../ports/organization-directory';
import type { GetFeesQuery } from './get-fees.query';

/**
 * GET /v1/fees: the organization's effective pricing. Spread and referrer share come from the
 * tier in force (the organization service's), or the platform default; payout fees from the
 * ledger's fee schedule, the same one payouts are charged by.
 */
@Injectable()
export class GetFeesUseCase {
  constructor(
    private readonly directory: OrganizationDirectory,
    private readonly settings: LedgerSettings,
  ) {}

  async execute(query: GetFeesQuery): Promise<FeesView> {
    const tier = await this.directory.effectiveTier(query.organizationId);
    return {
      object: 'fees',
      organizationId: query.organizationId,
      tier: tier ? { key: tier.key, label: tier.label } : null,
      ...pricingInForce(tier, this.settings),
      payoutFees: this.settings.payoutFees.list().map((fee) => ({
        object: 'payout_fee',
        rail: fee.rail,
        asset: fee.asset,
        amount: toAmountString(fee.amount, findAsset(fee.asset)?.scale ?? 18),
      })),
    };
  }
}
