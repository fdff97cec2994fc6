import type { CommandPayload } from '@pfs/contracts';

export type GetPayableBeneficiaryQuery = CommandPayload<'beneficiary', 'payable-beneficiaries.get'>;
