import type { CommandPayload } from '@pfs/contracts';

export type UpdateBeneficiaryCommand = CommandPayload<'beneficiary', 'beneficiaries.update'>;
