import type { CommandPayload } from '@pfs/contracts';

export type ListTransactionsQuery = CommandPayload<'ledger', 'transactions.list'>;
