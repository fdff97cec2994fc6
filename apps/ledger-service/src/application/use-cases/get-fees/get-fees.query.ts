import type { CommandPayload } from '@pfs/contracts';

export type GetFeesQuery = CommandPayload<'ledger', 'fees.get'>;
