import type { CommandPayload } from '@pfs/contracts';

export type CreateServicenetBeneficiaryCommand = CommandPayload<'beneficiary', 'servicenet-beneficiaries.create'>;
