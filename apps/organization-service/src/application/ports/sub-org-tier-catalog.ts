import type { SubOrgTier } from '../../domain/sub-org-tier';

/** The platform tiers and which of them each broker is offered (operator configuration). */
export abstract class SubOrgTierCatalog {
  abstract all(): readonly SubOrgTier[];
  /** The keys the broker is restricted to, or null when it is offered every tier. */
  abstract restrictionFor(brokerOrganizationId: string): readonly string[] | null;
}
