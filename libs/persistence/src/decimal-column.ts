import { Big } from '@pfs/contracts';
import type { Prisma } from './generated/prisma/client';

/** A numeric column as big.js: a model query's Decimal, or a raw query's `::text`. */
export function decimalColumn(value: string | Prisma.Decimal): Big {
  return new Big(typeof value === 'string' ? value : value.toFixed());
}
