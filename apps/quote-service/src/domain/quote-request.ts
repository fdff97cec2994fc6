import { Big, decimalPlaces, findAsset, isDecimalString, type AssetDefinition } from '@pfs/contracts';
import { InvalidQuoteRequestError } from './quote-errors';

/** Spec 4.7: sell `fromAmount`, or buy `toAmount`, never both, never neither. */
export interface QuoteRequest {
  from: AssetDefinition;
  to: AssetDefinition;
  side: { kind: 'sell'; fromAmount: Big } | { kind: 'buy'; toAmount: Big };
}

function asset(field: string, code: string): AssetDefinition {
  const found = findAsset(code);
  if (!found) throw new InvalidQuoteRequestError(field, `${code} is not an asset of the catalog (GET /v1/assets lists them)`);
  return found;
}

function amount(field: string, text: string, of: AssetDefinition): Big {
  if (!isDecimalString(text)) throw new InvalidQuoteRequestError(field, 'must be a decimal string such as "100.50"');
  if (decimalPlaces(text) > of.scale) throw new InvalidQuoteRequestError(field, `${of.code} takes at most ${of.scale} decimals`);
  const value = new Big(text);
  if (value.lte(0)) throw new InvalidQuoteRequestError(field, 'must be greater than zero');
  return value;
}

export function quoteRequest(input: { fromAsset: string; toAsset: string; fromAmount: string | null; toAmount: string | null }): QuoteRequest {
  const from = asset('fromAsset', input.fromAsset);
  const to = asset('toAsset', input.toAsset);
  if ((input.fromAmount === null) === (input.toAmount === null)) throw new InvalidQuoteRequestError('fromAmount', 'give exactly one of fromAmount and toAmount');
  const side = input.fromAmount !== null ? { kind: 'sell' as const, fromAmount: amount('fromAmount', input.fromAmount, from) } : { kind: 'buy' as const, toAmount: amount('toAmount', input.toAmount as string, to) };
  return { from, to, side };
}
