import type { OrganizationStanding } from '@pfs/contracts';
import { VerificationRequiredError } from '../domain/ledger-errors';
import type { OrganizationDirectory } from './ports/organization-directory';

/**
 * The standing of an organization about to move money, which must be APPROVED. The ledger's copy
 * decides an approval at once; a refusal is never made on the copy alone but on the owner's answer
 * now, so an organization approved a moment ago (its event still on the way) is never refused.
 */
export async function approvedStanding(directory: OrganizationDirectory, organizationId: string): Promise<OrganizationStanding> {
  const copy = await directory.standing(organizationId);
  if (copy.verificationStatus === 'APPROVED') return copy;
  const confirmed = await directory.confirmedStanding(organizationId);
  if (confirmed.verificationStatus !== 'APPROVED') throw new VerificationRequiredError(organizationId);
  return confirmed;
}
