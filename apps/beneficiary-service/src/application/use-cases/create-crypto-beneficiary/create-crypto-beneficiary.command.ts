import type { CommandPayload } from '@pfs/contracts';

export type CreateCryptoBeneficiaryCommand = CommandPayload<'beneficiary', 'crypto-beneficiaries.create'>;
