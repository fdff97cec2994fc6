import type { EventContract, EventOutbox, OrganizationStanding } from '@pfs/contracts';
import type { Organization } from '../domain/organization';

/** The `organization.created` payload, the same whichever way an organization came to be. */
export function organizationCreated(organization: Organization): EventContract['organization.created'] {
  return {
    organizationId: organization.id,
    primaryAccountId: organization.primaryAccountId,
    name: organization.name,
    parentOrganizationId: organization.parentOrganizationId,
    referrerOrganizationId: organization.referrerOrganizationId,
    createdAt: organization.createdAt.toISOString(),
  };
}

/**
 * The `organization.standing.updated` payload: the whole standing after a change to any part of
 * it. Appended in the transaction of the change, with the organization's row locked (or just
 * inserted), so the standings of one organization are numbered in the order they became true.
 */
export function standingUpdated(standing: OrganizationStanding, now: Date): EventContract['organization.standing.updated'] {
  return { ...standing, updatedAt: now.toISOString() };
}

/** A new organization's events, the same whichever way it came to be: `organization.created` and its first standing (no LOA yet). */
export async function appendCreated(outbox: EventOutbox, organization: Organization): Promise<void> {
  await outbox.append('organization.created', organizationCreated(organization));
  await outbox.append('organization.standing.updated', standingUpdated(organization.standing(false), organization.createdAt));
}
