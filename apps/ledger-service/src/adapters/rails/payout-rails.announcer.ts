import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { ASSET_CATALOG, type PayoutRail as RailName } from '@pfs/contracts';
import { LOGGER } from '@pfs/messaging';
import type { Logger } from '@pfs/platform';
import { LedgerSettings } from '../../application/ports/ledger-settings';
import { PayoutRails } from '../../application/ports/payout-rail';

/** One asset's payout rail as the startup log shows it. */
export interface AssetRail {
  asset: string;
  rail: RailName;
  adapter: string;
  /** Whether its payouts are taken here, or refused with `service_not_enabled` before anything is held. */
  payouts: 'enabled' | 'refused';
}

/**
 * At start, one log line naming the rail and adapter every catalog asset is paid out on, and
 * whether payouts are taken in this environment; a warning when none is (the sandbox rails in
 * production), so an operator sees at once that payouts are refused until a rail is bound.
 */
@Injectable()
export class PayoutRailsAnnouncer implements OnApplicationBootstrap {
  constructor(
    private readonly rails: PayoutRails,
    private readonly settings: LedgerSettings,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    const { environment } = this.settings;
    const assets: AssetRail[] = ASSET_CATALOG.map((asset) => {
      const adapter = this.rails.for(asset.type);
      return { asset: asset.code, rail: asset.type, adapter: adapter.adapter, payouts: adapter.movesMoneyIn(environment) ? 'enabled' : 'refused' };
    });
    this.logger.info({ environment, payoutRails: assets }, 'payout rails by asset');
    const refused = assets.filter((asset) => asset.payouts === 'refused').map((asset) => asset.asset);
    if (refused.length) {
      this.logger.warn(
        { environment, refused },
        'no payout rail that moves money is bound for these assets here: their payouts are refused with service_not_enabled before anything is held',
      );
    }
  }
}
