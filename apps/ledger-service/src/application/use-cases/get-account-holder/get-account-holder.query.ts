import type { CommandPayload } from '@pfs/contracts';

export type GetAccountHolderQuery = CommandPayload<'ledger', 'account-holders.get'>;
