import type { SubOrgTier } from '@pfs/contracts';
import type { LedgerSettings } from './ports/ledger-settings';

/** The spread and referrer share in force: the tier's, or the platform default with no share. */
export function pricingInForce(tier: SubOrgTier | null, settings: LedgerSettings): { spreadBps: number; referrerShareBps: number } {
  return tier ? { spreadBps: tier.spreadBps, referrerShareBps: tier.referrerShareBps } : { spreadBps: settings.defaultSpreadBps, referrerShareBps: 0 };
}
