import { Injectable } from '@nestjs/common';
import { isId } from '@pfs/contracts';
import { SubOrgTierCatalog } from '../../application/ports/sub-org-tier-catalog';
import { PLATFORM_SUB_ORG_TIERS, type SubOrgTier } from '../../domain/sub-org-tier';

/** `SUB_ORG_TIER_OFFERS=org_…=standard,preferred;org_…=standard`: brokers restricted to some tiers. */
export const SUB_ORG_TIER_OFFERS_ENV = 'SUB_ORG_TIER_OFFERS';

/**
 * Parses the operator's restrictions; a broker not named is offered every tier. Malformed input
 * stops the service at start rather than silently offering the wrong tiers.
 */
export function parseSubOrgTierOffers(value: string | undefined, tiers: readonly SubOrgTier[]): Map<string, string[]> {
  const offers = new Map<string, string[]>();
  for (const entry of (value ?? '').split(';').map((part) => part.trim()).filter(Boolean)) {
    const [organizationId, keys, ...rest] = entry.split('=').map((part) => part.trim());
    if (!organizationId || keys === undefined || rest.length || !isId('organization', organizationId)) {
      throw new Error(`${SUB_ORG_TIER_OFFERS_ENV}: "${entry}" must be org_<32 hex>=<tier key>[,<tier key>…]`);
    }
    const list = keys.split(',').map((key) => key.trim()).filter(Boolean);
    const unknown = list.filter((key) => !tiers.some((tier) => tier.key === key));
    if (unknown.length) throw new Error(`${SUB_ORG_TIER_OFFERS_ENV}: unknown tier ${unknown.join(', ')} for ${organizationId}`);
    if (offers.has(organizationId)) throw new Error(`${SUB_ORG_TIER_OFFERS_ENV}: ${organizationId} is listed twice`);
    offers.set(organizationId, list);
  }
  return offers;
}

@Injectable()
export class ConfiguredSubOrgTierCatalog extends SubOrgTierCatalog {
  private readonly offers = parseSubOrgTierOffers(process.env.SUB_ORG_TIER_OFFERS, PLATFORM_SUB_ORG_TIERS);

  all(): readonly SubOrgTier[] {
    return PLATFORM_SUB_ORG_TIERS;
  }

  restrictionFor(brokerOrganizationId: string): readonly string[] | null {
    return this.offers.get(brokerOrganizationId) ?? null;
  }
}
