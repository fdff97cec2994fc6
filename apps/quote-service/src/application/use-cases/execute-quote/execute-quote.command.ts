import type { CommandPayload } from '@pfs/contracts';

export type ExecuteQuoteCommand = CommandPayload<'quote', 'quotes.execute'>;
