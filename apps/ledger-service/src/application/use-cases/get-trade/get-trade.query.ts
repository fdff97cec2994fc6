import type { CommandPayload } from '@pfs/contracts';

export type GetTradeQuery = CommandPayload<'ledger', 'trades.get'>;
