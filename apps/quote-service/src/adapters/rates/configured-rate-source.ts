import type { Big } from '@pfs/contracts';
import { RateSource } from '../../application/ports/rate-source';
import { DEFAULT_RATES, RateTable } from '../../domain/rate-table';

/** RATES (`BASE/QUOTE=RATE,…`; unset or empty: the sandbox table of every catalog pair), read once at start. */
export class ConfiguredRateSource extends RateSource {
  private readonly table: RateTable;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    super();
    this.table = RateTable.parse(env.RATES?.trim() ? env.RATES : DEFAULT_RATES);
  }

  async midRate(fromAsset: string, toAsset: string): Promise<Big> {
    return this.table.midRate(fromAsset, toAsset);
  }
}
