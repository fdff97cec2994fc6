import type { Clock, RandomSource } from '@pfs/contracts';
import type { RateSource } from '../../application/ports/rate-source';
import { EnvRateDriftSettings } from '../config/env-rate-drift-settings';
import { ConfiguredRateSource, configuredRateTable } from './configured-rate-source';
import { DriftingRateSource } from './drifting-rate-source';

/** RATES as configured; with RATES_DRIFT_BPS > 0 (sandbox), the same table on a bounded random walk. */
export function rateSourceFromEnv(clock: Clock, random: RandomSource, env: NodeJS.ProcessEnv = process.env): RateSource {
  const drift = new EnvRateDriftSettings(env);
  if (drift.bps === 0) return new ConfiguredRateSource(env);
  return new DriftingRateSource(configuredRateTable(env), drift, clock, random);
}
