import type { CommandPayload } from '@pfs/contracts';

export type AdvanceTransactionCommand = CommandPayload<'ledger', 'transactions.advance'>;
