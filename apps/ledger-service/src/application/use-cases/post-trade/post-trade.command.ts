import type { CommandPayload } from '@pfs/contracts';

export type PostTradeCommand = CommandPayload<'ledger', 'trades.post'>;
