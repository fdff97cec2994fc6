import { MAX_DRIFT_BPS } from '../../domain/rate-drift';

/**
 * RATES_DRIFT_BPS (default 0: off, the configured rates as they are) and RATES_DRIFT_INTERVAL_MS
 * (default 1000): the sandbox's random walk of the mid-rates (see DriftingRateSource). A bad value
 * stops the service at start; a drift is refused when SERVICE_ENV=production.
 */
export class EnvRateDriftSettings {
  /** The largest move of one step, in basis points of the current rate. */
  readonly bps: number;
  /** Clock time per step. */
  readonly intervalMs: number;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    const bps = env.RATES_DRIFT_BPS?.trim() || '0';
    if (!/^(0|[1-9][0-9]{0,2})$/.test(bps) || Number(bps) > MAX_DRIFT_BPS) {
      throw new Error(`RATES_DRIFT_BPS must be an integer 0–${MAX_DRIFT_BPS} (basis points per step; 0: off), not "${env.RATES_DRIFT_BPS}"`);
    }
    this.bps = Number(bps);
    if (this.bps > 0 && env.SERVICE_ENV === 'production') throw new Error('RATES_DRIFT_BPS is a sandbox setting: refused when SERVICE_ENV=production');
    const interval = env.RATES_DRIFT_INTERVAL_MS?.trim() || '1000';
    if (!/^[1-9][0-9]{2,6}$/.test(interval)) throw new Error(`RATES_DRIFT_INTERVAL_MS must be 100–9999999, not "${env.RATES_DRIFT_INTERVAL_MS}"`);
    this.intervalMs = Number(interval);
  }
}
