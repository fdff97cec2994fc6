import { Big, isDecimalString, type ServiceEnvironment } from '@pfs/contracts';
import { LedgerSettings } from '../../application/ports/ledger-settings';
import { PayoutFeeSchedule } from '../../domain/payout-fee-schedule';
import { parseDuration } from './duration';

/**
 * FAUCET_MAX_AMOUNT (default 1000000, major units per call), PAYOUT_FEES (see PayoutFeeSchedule),
 * SANDBOX_AUTO_SETTLE (`true` or `false`, default true) and SANDBOX_SETTLE_DELAY (a duration such as `2s` or `500ms`, default `2s`). Read once; anything
 * malformed stops the service at start.
 */
export class EnvLedgerSettings extends LedgerSettings {
  readonly faucetMaxAmount: Big;
  readonly payoutFees: PayoutFeeSchedule;
  readonly sandboxAutoSettle: boolean;
  readonly sandboxSettleDelayMs: number;

  constructor(
    readonly environment: ServiceEnvironment,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    super();
    const cap = env.FAUCET_MAX_AMOUNT ?? '1000000';
    if (!isDecimalString(cap) || new Big(cap).lte(0)) throw new Error(`FAUCET_MAX_AMOUNT must be a positive decimal, not "${cap}"`);
    this.faucetMaxAmount = new Big(cap);
    this.payoutFees = PayoutFeeSchedule.parse(env.PAYOUT_FEES ?? PayoutFeeSchedule.DEFAULT);
    const autoSettle = env.SANDBOX_AUTO_SETTLE ?? 'true';
    if (autoSettle !== 'true' && autoSettle !== 'false') throw new Error(`SANDBOX_AUTO_SETTLE must be true or false, not "${autoSettle}"`);
    this.sandboxAutoSettle = autoSettle === 'true';
    this.sandboxSettleDelayMs = parseDuration('SANDBOX_SETTLE_DELAY', env.SANDBOX_SETTLE_DELAY ?? '2s');
  }
}

/**
 * STANDING_CACHE_MS (default 250; 0 turns the cache off): how long a ledger process reuses an
 * organization's standing read from its copy. A change taken by another replica
 * reaches this one's decisions within it.
 */
export function standingCacheMs(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.STANDING_CACHE_MS ?? '250';
  if (!/^[0-9]{1,6}$/.test(text)) throw new Error(`STANDING_CACHE_MS must be a whole number of milliseconds (0 turns the cache off), not "${text}"`);
  return Number(text);
}
