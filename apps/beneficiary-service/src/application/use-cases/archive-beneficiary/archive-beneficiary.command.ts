import type { CommandPayload } from '@pfs/contracts';

export type ArchiveBeneficiaryCommand = CommandPayload<'beneficiary', 'beneficiaries.archive'>;
