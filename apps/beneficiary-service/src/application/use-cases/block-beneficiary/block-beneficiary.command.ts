import type { CommandPayload } from '@pfs/contracts';

export type BlockBeneficiaryCommand = CommandPayload<'beneficiary', 'beneficiaries.block'>;
