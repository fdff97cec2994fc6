import { Big, findAsset, PAYOUT_RAILS, type PayoutRail } from '@pfs/contracts';

export interface PayoutFee {
  rail: PayoutRail;
  asset: string;
  amount: Big;
}

/**
 * The flat fee per payout, per rail and asset, charged on top of the amount. Written as
 * `FIAT:USD=1.00,CRYPTO:USDC=1` (PAYOUT_FEES); a rail and asset not listed pays no fee.
 */
export class PayoutFeeSchedule {
  private constructor(private readonly fees: readonly PayoutFee[]) {}

  static readonly DEFAULT = 'FIAT:USD=1.00,FIAT:EUR=1.00,CRYPTO:USDC=1.00,CRYPTO:USDT=1.00,CRYPTO:ETH=0.0005,CRYPTO:BTC=0.00002';

  /** Throws on anything malformed, so a bad configuration stops the service at start. */
  static parse(text: string): PayoutFeeSchedule {
    const fees: PayoutFee[] = [];
    for (const item of text.split(',').map((part) => part.trim()).filter(Boolean)) {
      const match = /^([A-Z]+):([A-Z0-9]+)=([0-9]+(?:\.[0-9]+)?)$/.exec(item);
      if (!match) throw new Error(`PAYOUT_FEES: "${item}" is not RAIL:ASSET=AMOUNT`);
      const [, rail, assetCode, amount] = match as unknown as [string, string, string, string];
      if (!(PAYOUT_RAILS as readonly string[]).includes(rail)) throw new Error(`PAYOUT_FEES: unknown rail ${rail} (${PAYOUT_RAILS.join(', ')})`);
      const asset = findAsset(assetCode);
      if (!asset) throw new Error(`PAYOUT_FEES: ${assetCode} is not in the asset catalog`);
      if ((rail === 'FIAT') !== (asset.type === 'FIAT')) throw new Error(`PAYOUT_FEES: ${assetCode} cannot be paid out on the ${rail} rail`);
      const decimals = amount.includes('.') ? amount.length - amount.indexOf('.') - 1 : 0;
      if (decimals > asset.scale) throw new Error(`PAYOUT_FEES: ${item} has more decimals than ${assetCode}'s scale ${asset.scale}`);
      if (fees.some((fee) => fee.rail === rail && fee.asset === assetCode)) throw new Error(`PAYOUT_FEES: ${rail}:${assetCode} is listed twice`);
      fees.push({ rail: rail as PayoutRail, asset: assetCode, amount: new Big(amount) });
    }
    return new PayoutFeeSchedule(fees);
  }

  feeFor(rail: PayoutRail, asset: string): Big {
    return this.fees.find((fee) => fee.rail === rail && fee.asset === asset)?.amount ?? new Big(0);
  }

  list(): readonly PayoutFee[] {
    return this.fees;
  }
}
