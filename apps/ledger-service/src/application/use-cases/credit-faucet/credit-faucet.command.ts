import type { CommandPayload } from '@pfs/contracts';

export type CreditFaucetCommand = CommandPayload<'ledger', 'faucet.credit'>;
