import { Big, isDecimalString, type ServiceEnvironment } from '@pfs/contracts';
import { LedgerSettings } from '../../application/ports/ledger-settings';
import { PayoutFeeSchedule } from '../../domain/payout-fee-schedule';

/**
 * FAUCET_MAX_AMOUNT (default 1000000, major units per call), PAYOUT_FEES (see PayoutFeeSchedule)
 * and DEFAULT_SPREAD_BPS (default 100). Read once; anything malformed stops the service at start.
 */
export class EnvLedgerSettings extends LedgerSettings {
  readonly faucetMaxAmount: Big;
  readonly payoutFees: PayoutFeeSchedule;
  readonly defaultSpreadBps: number;

  constructor(
    readonly environment: ServiceEnvironment,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    super();
    const cap = env.FAUCET_MAX_AMOUNT ?? '1000000';
    if (!isDecimalString(cap) || new Big(cap).lte(0)) throw new Error(`FAUCET_MAX_AMOUNT must be a positive decimal, not "${cap}"`);
    this.faucetMaxAmount = new Big(cap);
    this.payoutFees = PayoutFeeSchedule.parse(env.PAYOUT_FEES ?? PayoutFeeSchedule.DEFAULT);
    const spread = env.DEFAULT_SPREAD_BPS ?? '100';
    if (!/^[0-9]{1,4}$/.test(spread) || Number(spread) > 10000) throw new Error(`DEFAULT_SPREAD_BPS must be 0–10000, not "${spread}"`);
    this.defaultSpreadBps = Number(spread);
  }
}
