import type { CommandPayload } from '@pfs/contracts';

export type UnblockBeneficiaryCommand = CommandPayload<'beneficiary', 'beneficiaries.unblock'>;
