import { isNumericOverflow } from '@pfs/persistence';
import { AmountTooLargeError } from '../../domain/ledger-errors';

/** A line or a transaction amount beyond numeric(38, 18) is the request's fault: refused, not retried. */
export async function refuseOverflow<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    throw overflowRefusal(error) ?? error;
  }
}

/** The refusal a numeric overflow means for the request's amounts; undefined for any other error. */
export function overflowRefusal(error: unknown): AmountTooLargeError | undefined {
  return isNumericOverflow(error) ? new AmountTooLargeError('an amount of this request') : undefined;
}
