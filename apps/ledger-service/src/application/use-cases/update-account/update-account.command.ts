import type { CommandPayload } from '@pfs/contracts';

export type UpdateAccountCommand = CommandPayload<'ledger', 'accounts.update'>;
