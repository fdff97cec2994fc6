import { DomainError, isId } from '@pfs/contracts';

/** The `{quoteId}` path parameter, as every quote route documents it. */
export const QUOTE_PARAM = { name: 'quoteId', description: 'Quote id, `quote_` + 32 hex.', example: 'quote_3e1f5a7c9b0d2e4f6a8c0b1d3e5f7a9c' } as const;

/** A malformed id names no quote: answered here as an unknown one, sparing the service a round trip. */
export function quoteIdOf(quoteId: string): string {
  if (!isId('quote', quoteId)) throw new DomainError('quote_not_found', 'No quote with this id was found.');
  return quoteId;
}
