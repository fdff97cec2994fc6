import type { CommandPayload } from '@pfs/contracts';

export type ListPayoutFeesQuery = CommandPayload<'ledger', 'payout-fees.list'>;
