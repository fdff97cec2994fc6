import { isNumericOverflow } from '@pfs/persistence';
import { AmountTooLargeError } from '../../domain/ledger-errors';

/** A line or a transaction amount beyond numeric(38, 18) is the request's fault: refused, not retried. */
export async function refuseOverflow<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isNumericOverflow(error)) throw new AmountTooLargeError('an amount of this request');
    throw error;
  }
}
