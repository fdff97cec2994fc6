import { Injectable } from '@nestjs/common';
import { findAsset, toAmountString, type PayoutFeeView } from '@pfs/contracts';
import { LedgerSettings } from '../../ports/ledger-settings';
import type { ListPayoutFeesQuery } from './list-payout-fees.query';

/**
 * The payout fees of GET /v1/fees: the ledger's fee schedule, the same one payouts are charged
 * by, one fee per rail and asset. The spread beside them is the quote service's.
 */
@Injectable()
export class ListPayoutFeesUseCase {
  constructor(private readonly settings: LedgerSettings) {}

  async execute(_query: ListPayoutFeesQuery): Promise<PayoutFeeView[]> {
    return this.settings.payoutFees.list().map((fee) => ({
      object: 'payout_fee',
      rail: fee.rail,
      asset: fee.asset,
      amount: toAmountString(fee.amount, findAsset(fee.asset)?.scale ?? 18),
    }));
  }
}
