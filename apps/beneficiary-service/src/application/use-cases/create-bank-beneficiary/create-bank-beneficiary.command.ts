import type { CommandPayload } from '@pfs/contracts';

export type CreateBankBeneficiaryCommand = CommandPayload<'beneficiary', 'bank-beneficiaries.create'>;
