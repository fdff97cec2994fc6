import type { CommandPayload } from '@pfs/contracts';

export type GetTradingTermsQuery = CommandPayload<'ledger', 'trading-terms.get'>;
