import type { CommandPayload } from '@pfs/contracts';

export type GetTransactionQuery = CommandPayload<'ledger', 'transactions.get'>;
