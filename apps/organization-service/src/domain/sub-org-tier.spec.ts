import { PLATFORM_SUB_ORG_TIERS, tiersOffered, tierToAssign } from './sub-org-tier';

describe('sub-org tiers', () => {
  it('ships standard, preferred and vip with their spreads and shares', () => {
    expect(PLATFORM_SUB_ORG_TIERS.map((tier) => [tier.key, tier.label, tier.spreadBps, tier.referrerShareBps])).toEqual([
      ['standard', 'Standard', 100, 0],
      ['preferred', 'Preferred', 60, 20],
      ['vip', 'VIP', 30, 30],
    ]);
  });

  it('offers every tier without a restriction and only the listed ones with it, in platform order', () => {
    expect(tiersOffered(PLATFORM_SUB_ORG_TIERS, null).map((tier) => tier.key)).toEqual(['standard', 'preferred', 'vip']);
    expect(tiersOffered(PLATFORM_SUB_ORG_TIERS, ['vip', 'standard']).map((tier) => tier.key)).toEqual(['standard', 'vip']);
  });

  it('resolves a key, refuses an unknown one and one not offered, and always allows a removal', () => {
    const offered = tiersOffered(PLATFORM_SUB_ORG_TIERS, ['standard']);
    expect(tierToAssign(PLATFORM_SUB_ORG_TIERS, offered, 'standard')?.spreadBps).toBe(100);
    expect(tierToAssign(PLATFORM_SUB_ORG_TIERS, offered, null)).toBeNull();
    expect(() => tierToAssign(PLATFORM_SUB_ORG_TIERS, offered, 'gold')).toThrow(expect.objectContaining({ code: 'sub_org_tier_not_found' }));
    expect(() => tierToAssign(PLATFORM_SUB_ORG_TIERS, offered, 'vip')).toThrow(expect.objectContaining({ code: 'sub_org_tier_not_available' }));
  });
});
