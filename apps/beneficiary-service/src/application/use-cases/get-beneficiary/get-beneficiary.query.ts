import type { CommandPayload } from '@pfs/contracts';

export type GetBeneficiaryQuery = CommandPayload<'beneficiary', 'beneficiaries.get'>;
