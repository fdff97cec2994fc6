import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsIn, Matches } from 'class-validator';
import { ASSET_CATALOG } from '@pfs/contracts';
import { IsAmount } from '../validation/is-amount.decorator';
import { IsReference } from '../validation/is-reference.decorator';

const FIAT_ASSETS = ASSET_CATALOG.filter((asset) => asset.type === 'FIAT').map((asset) => asset.code);
const CRYPTO_ASSETS = ASSET_CATALOG.filter((asset) => asset.type === 'CRYPTO').map((asset) => asset.code);

const ACCOUNT_RULE = 'must be an account id (acct_ followed by 32 lowercase hex characters)';
const BENEFICIARY_RULE = 'must be a beneficiary id (bene_ followed by 32 lowercase hex characters)';
/** What a bank statement line carries: printable text, no control characters. */

/** The fields both payout routes share. */
abstract class PayoutBody {
  @ApiProperty({ pattern: '^acct_[0-9a-f]{32}$', example: 'acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c', description: 'Account to pay from: one of the organization’s own.' })
  @Matches(/^acct_[0-9a-f]{32}$/, { message: ACCOUNT_RULE })
  accountId!: string;

  @ApiProperty({ pattern: '^bene_[0-9a-f]{32}$', example: 'bene_9a2c4e6f8b0d1c3e5a7f9b2d4c6e8a0f', description: 'An ACTIVE beneficiary registered on `accountId`.' })
  @Matches(/^bene_[0-9a-f]{32}$/, { message: BENEFICIARY_RULE })
  beneficiaryId!: string;

  abstract asset: string;

  @IsAmount({ assetField: 'asset', description: 'Amount the beneficiary receives; the payout fee is charged on top' })
  amount!: string;
}

@ApiSchema({ name: 'FiatPayoutRequest', description: 'A payout to a BANK beneficiary, in its bank account’s currency.' })
export class FiatPayoutBody extends PayoutBody {
  @ApiProperty({ enum: FIAT_ASSETS, example: 'USD', description: 'A fiat asset of the catalog: the beneficiary’s bank account currency.' })
  @IsIn(FIAT_ASSETS, { message: `must be one of ${FIAT_ASSETS.join(', ')} (a fiat asset)` })
  asset!: string;

  @IsReference('Shown to the beneficiary with the transfer (a bank statement line).')
  reference?: string;
}

@ApiSchema({ name: 'CryptoPayoutRequest', description: 'A payout to a CRYPTO beneficiary, on its chain.' })
export class CryptoPayoutBody extends PayoutBody {
  @ApiProperty({ enum: CRYPTO_ASSETS, example: 'USDC', description: 'A crypto asset carried by the beneficiary’s chain (USDC and USDT on every sandbox chain, ETH on EVM chains).' })
  @IsIn(CRYPTO_ASSETS, { message: `must be one of ${CRYPTO_ASSETS.join(', ')} (a crypto asset)` })
  asset!: string;
}
