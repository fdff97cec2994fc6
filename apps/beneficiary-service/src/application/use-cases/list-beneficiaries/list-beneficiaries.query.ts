import type { CommandPayload } from '@pfs/contracts';

export type ListBeneficiariesQuery = CommandPayload<'beneficiary', 'beneficiaries.list'>;
