import Big from 'big.js';

// Exact decimal arithmetic only; JavaScript numbers never hold money.
Big.DP = 40;
Big.RM = Big.roundDown;
Big.NE = -50;
Big.PE = 50;

export { Big };

/** api-decisions §1: a positive decimal string, no sign, no exponent. */
export const DECIMAL_STRING = /^[0-9]+(\.[0-9]+)?$/;

export function isDecimalString(value: unknown): value is string {
  return typeof value === 'string' && DECIMAL_STRING.test(value);
}

export function decimalPlaces(value: string): number {
  const dot = value.indexOf('.');
  return dot === -1 ? 0 : value.length - dot - 1;
}

/** A positive amount with at most `scale` decimals (api-decisions §1). */
export function isValidAmount(value: unknown, scale: number): value is string {
  return isDecimalString(value) && decimalPlaces(value) <= scale && new Big(value).gt(0);
}

/** Rounds down (what the client receives) at the asset's scale. */
export function roundDown(value: Big, scale: number): Big {
  return value.round(scale, Big.roundDown);
}

/** Rounds up (what the client pays) at the asset's scale. */
export function roundUp(value: Big, scale: number): Big {
  return value.round(scale, Big.roundUp);
}

/** Canonical wire form at a scale: fixed notation, trailing zeros kept to the scale. */
export function toAmountString(value: Big | string, scale: number): string {
  return new Big(value).toFixed(scale);
}

/** Normalised form for storage comparisons: no trailing zeros. */
export function normalizeAmount(value: Big | string): string {
  return new Big(value).toFixed();
}
