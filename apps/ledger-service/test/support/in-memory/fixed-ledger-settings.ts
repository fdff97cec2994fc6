import { Big, type ServiceEnvironment } from '@pfs/contracts';
import { LedgerSettings } from '../../../src/application/ports/ledger-settings';
import { PayoutFeeSchedule } from '../../../src/domain/payout-fee-schedule';

export class FixedLedgerSettings extends LedgerSettings {
  readonly faucetMaxAmount: Big;
  readonly payoutFees: PayoutFeeSchedule;

  constructor(
    readonly environment: ServiceEnvironment = 'sandbox',
    options: { faucetMaxAmount?: string; payoutFees?: string } = {},
    readonly sandboxAutoSettle = true,
    readonly sandboxSettleDelayMs = 2000,
  ) {
    super();
    this.faucetMaxAmount = new Big(options.faucetMaxAmount ?? '1000000');
    this.payoutFees = PayoutFeeSchedule.parse(options.payoutFees ?? 'FIAT:USD=1.00,CRYPTO:USDC=0.5');
  }
}
