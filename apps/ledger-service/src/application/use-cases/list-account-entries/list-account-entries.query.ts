import type { CommandPayload } from '@pfs/contracts';

export type ListAccountEntriesQuery = CommandPayload<'ledger', 'account-entries.list'>;
