import { DomainError, isId } from '@pfs/contracts';

/** The `{beneficiaryId}` path parameter, as every beneficiary route documents it. */
export const BENEFICIARY_PARAM = { name: 'beneficiaryId', description: 'Beneficiary id, `bene_` + 32 hex.', example: 'bene_9a2c4e6f8b0d1c3e5a7f9b2d4c6e8a0f' } as const;

/** A malformed id names no beneficiary: answered here as an unknown one, sparing the service a round trip. */
export function beneficiaryIdOf(beneficiaryId: string): string {
  if (!isId('beneficiary', beneficiaryId)) throw new DomainError('beneficiary_not_found', 'No beneficiary with this id was found.');
  return beneficiaryId;
}
