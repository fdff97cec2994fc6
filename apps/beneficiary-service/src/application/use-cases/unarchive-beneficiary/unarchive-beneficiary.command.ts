import type { CommandPayload } from '@pfs/contracts';

export type UnarchiveBeneficiaryCommand = CommandPayload<'beneficiary', 'beneficiaries.unarchive'>;
