import type { CommandPayload } from '@pfs/contracts';

export type GetQuoteQuery = CommandPayload<'quote', 'quotes.get'>;
