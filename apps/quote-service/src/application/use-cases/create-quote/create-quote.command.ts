import type { CommandPayload } from '@pfs/contracts';

export type CreateQuoteCommand = CommandPayload<'quote', 'quotes.create'>;
