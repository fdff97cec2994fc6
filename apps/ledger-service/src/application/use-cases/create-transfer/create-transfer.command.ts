import type { CommandPayload } from '@pfs/contracts';

export type CreateTransferCommand = CommandPayload<'ledger', 'transfers.create'>;
