import type { CommandPayload } from '@pfs/contracts';

export type OpenAccountCommand = CommandPayload<'ledger', 'accounts.open'>;
