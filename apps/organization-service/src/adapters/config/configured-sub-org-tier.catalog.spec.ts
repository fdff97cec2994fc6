import { PLATFORM_SUB_ORG_TIERS } from '../../domain/sub-org-tier';
import { parseSubOrgTierOffers } from './configured-sub-org-tier.catalog';

const A = `org_${'a'.repeat(32)}`;
const B = `org_${'b'.repeat(32)}`;

describe('SUB_ORG_TIER_OFFERS', () => {
  it('is empty when unset, so every broker is offered every tier', () => {
    expect(parseSubOrgTierOffers(undefined, PLATFORM_SUB_ORG_TIERS).size).toBe(0);
    expect(parseSubOrgTierOffers(' ', PLATFORM_SUB_ORG_TIERS).size).toBe(0);
  });

  it('reads one restriction per broker', () => {
    const offers = parseSubOrgTierOffers(`${A}=standard, preferred ; ${B}=`, PLATFORM_SUB_ORG_TIERS);
    expect(Object.fromEntries(offers)).toEqual({ [A]: ['standard', 'preferred'], [B]: [] });
  });

  it('refuses malformed entries, unknown tiers and a broker listed twice', () => {
    expect(() => parseSubOrgTierOffers('org_x=standard', PLATFORM_SUB_ORG_TIERS)).toThrow(/must be org_/);
    expect(() => parseSubOrgTierOffers(A, PLATFORM_SUB_ORG_TIERS)).toThrow(/must be org_/);
    expect(() => parseSubOrgTierOffers(`${A}=gold`, PLATFORM_SUB_ORG_TIERS)).toThrow(/unknown tier gold/);
    expect(() => parseSubOrgTierOffers(`${A}=vip;${A}=standard`, PLATFORM_SUB_ORG_TIERS)).toThrow(/listed twice/);
  });
});
