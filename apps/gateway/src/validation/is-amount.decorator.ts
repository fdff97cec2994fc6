import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, registerDecorator, type ValidationArguments } from 'class-validator';
import { ASSET_CATALOG, Big, DECIMAL_STRING, decimalPlaces, findAsset } from '@pfs/contracts';

/**
 * The most digits an amount may have before the decimal point: below 10^15. The services keep
 * amounts and balances as numeric(38, 18), which holds 20 digits before the point, and every
 * figure they derive from one amount must fit too: amount + fee held by a payout, a balance
 * summing many credits, a quote's `fromAmount × rate` (BTC/USD is about 10^5). 15 digits leave
 * those five digits of headroom; 20 let `balance − (amount + fee)` overflow into a server error.
 */
export const MAX_AMOUNT_INTEGER_DIGITS = 15;

/** The form and the bound as one pattern for the document: leading zeros are not digits that count. */
export const AMOUNT_PATTERN = `^0*[0-9]{1,${MAX_AMOUNT_INTEGER_DIGITS}}(\\.[0-9]+)?$`;

/** Every amount is less than this (10^15). */
export const AMOUNT_LIMIT = new Big(10).pow(MAX_AMOUNT_INTEGER_DIGITS).toFixed();

/** The bound as partners read it, in messages and in the document. */
export const AMOUNT_BOUND = `at most ${MAX_AMOUNT_INTEGER_DIGITS} digits before the decimal point (less than ${AMOUNT_LIMIT})`;

/**
 * Why `value` is not a valid amount of the asset `assetCode` (api-decisions §1), or null when
 * it is: a JSON string of digits with an optional fraction, greater than zero, below
 * AMOUNT_LIMIT, with no more decimals than the asset's scale. JSON numbers, signs, exponents and
 * `NaN` are refused. An unknown asset is reported on the asset field, so only the form is
 * checked then.
 */
export function amountProblem(value: unknown, assetCode: unknown): string | null {
  if (typeof value !== 'string' || !DECIMAL_STRING.test(value)) {
    return 'must be a decimal string in major units such as "10.50": digits with an optional fraction, no sign or exponent';
  }
  const integerDigits = value.split('.')[0]?.replace(/^0+(?=\d)/, '').length ?? 0;
  if (integerDigits > MAX_AMOUNT_INTEGER_DIGITS) return `must have ${AMOUNT_BOUND}`;
  if (!new Big(value).gt(0)) return 'must be greater than zero';
  const asset = typeof assetCode === 'string' ? findAsset(assetCode) : undefined;
  if (asset && decimalPlaces(value) > asset.scale) {
    return `must have at most ${asset.scale} decimal places for ${asset.code}`;
  }
  return null;
}

export interface AmountOptions {
  /** The sibling field naming the asset whose scale bounds the decimals (`asset`, `fromAsset`, …). */
  assetField: string;
  optional?: boolean;
  description?: string;
}

/**
 * The one decimal-amount rule of every body (validation and its OpenAPI description together):
 * `@IsAmount({ assetField: 'asset' }) amount!: string`.
 */
export function IsAmount(options: AmountOptions): PropertyDecorator {
  const documentation = {
    type: 'string',
    pattern: AMOUNT_PATTERN,
    example: '125.50',
    description:
      `${options.description ?? 'Amount'} in major units of the asset named by \`${options.assetField}\`, as a decimal string greater than zero ` +
      `with ${AMOUNT_BOUND} and at most the asset's \`scale\` decimals (${ASSET_CATALOG.map((asset) => `${asset.code} ${asset.scale}`).join(', ')}). ` +
      'JSON numbers, signs and exponents are rejected.',
  } as const;
  const validation: PropertyDecorator = (target, propertyName) => {
    registerDecorator({
      name: 'isAmount',
      target: target.constructor,
      propertyName: String(propertyName),
      constraints: [options.assetField],
      validator: {
        validate: (value: unknown, args: ValidationArguments) => amountProblem(value, assetOf(args)) === null,
        defaultMessage: (args?: ValidationArguments) => (args ? amountProblem(args.value, assetOf(args)) : null) ?? 'must be a valid amount',
      },
    });
  };
  return options.optional
    ? applyDecorators(IsOptional(), ApiPropertyOptional(documentation), validation)
    : applyDecorators(ApiProperty(documentation), validation);
}

function assetOf(args: ValidationArguments): unknown {
  const [assetField] = args.constraints as [string];
  return (args.object as Record<string, unknown>)[assetField];
}
