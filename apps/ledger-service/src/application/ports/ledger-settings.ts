import type { Big, ServiceEnvironment } from '@pfs/contracts';
import type { PayoutFeeSchedule } from '../../domain/payout-fee-schedule';

/** The ledger's configuration, read once at start. */
export abstract class LedgerSettings {
  abstract readonly environment: ServiceEnvironment;
  /** The most one faucet call may credit, in major units of the asset (FAUCET_MAX_AMOUNT). */
  abstract readonly faucetMaxAmount: Big;
  abstract readonly payoutFees: PayoutFeeSchedule;
  /** Sandbox: whether payouts move by themselves (SANDBOX_AUTO_SETTLE, default true). */
  abstract readonly sandboxAutoSettle: boolean;
  /** Sandbox: how long a payout waits in EXPECTED, then in LOCKED, before its next move (SANDBOX_SETTLE_DELAY, default 2s). */
  abstract readonly sandboxSettleDelayMs: number;
}
