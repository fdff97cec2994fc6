import type { CommandPayload } from '@pfs/contracts';

export type CreatePayoutCommand = CommandPayload<'ledger', 'payouts.create'>;
