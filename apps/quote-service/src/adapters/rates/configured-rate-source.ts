import type { Big } from '@pfs/contracts';
import { RateSource } from '../../application/ports/rate-source';
import { DEFAULT_RATES, RateTable } from '../../domain/rate-table';

/** RATES (`BASE/QUOTE=RATE,…`; unset or empty: the sandbox table of every catalog pair), read once at start. */
export function configuredRateTable(env: NodeJS.ProcessEnv = process.env): RateTable {
  return RateTable.parse(env.RATES?.trim() ? env.RATES : DEFAULT_RATES);
}

/** The configured table as it is (RATES_DRIFT_BPS=0, the default). */
export class ConfiguredRateSource extends RateSource {
  private readonly table: RateTable;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    super();
    this.table = configuredRateTable(env);
  }

  async midRate(fromAsset: string, toAsset: string): Promise<Big> {
    return this.table.midRate(fromAsset, toAsset);
  }
}
