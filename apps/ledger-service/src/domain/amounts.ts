import { Big, decimalPlaces, findAsset, isDecimalString, type AssetDefinition } from '@pfs/contracts';
import { LedgerRequestError } from './ledger-errors';

/** A catalog asset, or `invalid_request` naming the field. */
export function catalogAsset(code: string, field = 'asset'): AssetDefinition {
  const asset = findAsset(code);
  if (!asset) throw new LedgerRequestError(`${field}: ${code} is not an asset of the catalog (GET /v1/assets lists them).`);
  return asset;
}

/** A positive amount with no more decimals than the asset's scale (api-decisions §1). */
export function positiveAmount(text: string, asset: AssetDefinition, field = 'amount'): Big {
  if (!isDecimalString(text)) throw new LedgerRequestError(`${field}: must be a decimal string`);
  if (decimalPlaces(text) > asset.scale) throw new LedgerRequestError(`${field}: ${asset.code} takes at most ${asset.scale} decimals`);
  const amount = new Big(text);
  if (amount.lte(0)) throw new LedgerRequestError(`${field}: must be greater than zero`);
  return amount;
}

/** Zero or more, with no more decimals than the asset's scale: a fee or commission that may be '0'. */
export function nonNegativeAmount(text: string, asset: AssetDefinition, field: string): Big {
  if (!isDecimalString(text)) throw new LedgerRequestError(`${field}: must be a decimal string`);
  if (decimalPlaces(text) > asset.scale) throw new LedgerRequestError(`${field}: ${asset.code} takes at most ${asset.scale} decimals`);
  return new Big(text);
}
