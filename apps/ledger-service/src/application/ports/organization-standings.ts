import type { OrganizationStanding } from '@pfs/contracts';

/** The ledger's own copy of each organization's standing, kept from the organization service's events. */
export abstract class OrganizationStandings {
  /**
   * Takes the standing an event carries when it is newer (a higher `sequence`) than the copy's;
   * an older one, arriving late, changes nothing. True when it was taken.
   */
  abstract apply(standing: OrganizationStanding, sequence: number): Promise<boolean>;
  abstract find(organizationId: string): Promise<OrganizationStanding | null>;
  /**
   * Takes an answer the owner gave just now: as the first row of an organization never heard of,
   * or over the row's data (keeping its sequence, so the next event still replaces it).
   */
  abstract remember(standing: OrganizationStanding): Promise<void>;
}
