import type { SubOrgTier } from '@pfs/contracts';

/** The quote service's own copy of the pricing tier in force per organization, kept from the organization service's events. */
export abstract class OrganizationTiers {
  /**
   * Takes the tier an event carries when it is newer (a higher `sequence`) than the copy's; an
   * older one, arriving late, changes nothing. True when it was taken.
   */
  abstract apply(organizationId: string, tier: SubOrgTier | null, sequence: number): Promise<boolean>;
  /** The copy's tier (null: the platform default), or undefined for an organization it has never heard of. */
  abstract find(organizationId: string): Promise<SubOrgTier | null | undefined>;
  /**
   * Takes an answer the owner gave just now, only as the first row of an organization never heard
   * of: an event taken meanwhile is newer than the answer and stays.
   */
  abstract rememberIfAbsent(organizationId: string, tier: SubOrgTier | null): Promise<void>;
}
