import type { Big, ServiceEnvironment } from '@pfs/contracts';
import type { PayoutFeeSchedule } from '../../domain/payout-fee-schedule';

/** The ledger's configuration, read once at start. */
export abstract class LedgerSettings {
  abstract readonly environment: ServiceEnvironment;
  /** The most one faucet call may credit, in major units of the asset (FAUCET_MAX_AMOUNT). */
  abstract readonly faucetMaxAmount: Big;
  abstract readonly payoutFees: PayoutFeeSchedule;
  /** Spread without a tier, in basis points (api-decisions §6). */
  abstract readonly defaultSpreadBps: number;
}
