import type { CommandPayload } from '@pfs/contracts';

export type ListQuotesQuery = CommandPayload<'quote', 'quotes.list'>;
