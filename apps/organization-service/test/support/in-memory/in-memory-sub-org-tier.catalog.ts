import { SubOrgTierCatalog } from '../../../src/application/ports/sub-org-tier-catalog';
import { PLATFORM_SUB_ORG_TIERS, type SubOrgTier } from '../../../src/domain/sub-org-tier';

/** The operator configuration as a plain map: broker id → the tier keys it is restricted to. */
export class InMemorySubOrgTierCatalog extends SubOrgTierCatalog {
  constructor(private readonly restrictions: ReadonlyMap<string, readonly string[]> = new Map()) {
    super();
  }

  all(): readonly SubOrgTier[] {
    return PLATFORM_SUB_ORG_TIERS;
  }

  restrictionFor(brokerOrganizationId: string): readonly string[] | null {
    return this.restrictions.get(brokerOrganizationId) ?? null;
  }
}
