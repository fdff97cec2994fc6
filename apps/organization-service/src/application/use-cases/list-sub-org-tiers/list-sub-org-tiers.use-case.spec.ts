import { PLATFORM_SUB_ORG_TIERS, type SubOrgTier } from '../../../domain/sub-org-tier';
import { SubOrgTierCatalog } from '../../ports/sub-org-tier-catalog';
import { ListSubOrgTiersUseCase } from './list-sub-org-tiers.use-case';

/** The operator configuration as a plain map: broker id → the tier keys it is restricted to. */
class InMemorySubOrgTierCatalog extends SubOrgTierCatalog {
  constructor(private readonly restrictions: ReadonlyMap<string, readonly string[]>) {
    super();
  }

  all(): readonly SubOrgTier[] {
    return PLATFORM_SUB_ORG_TIERS;
  }

  restrictionFor(brokerOrganizationId: string): readonly string[] | null {
    return this.restrictions.get(brokerOrganizationId) ?? null;
  }
}

describe('ListSubOrgTiersUseCase (in memory)', () => {
  const useCase = new ListSubOrgTiersUseCase(new InMemorySubOrgTierCatalog(new Map([['org_restricted', ['vip', 'standard']]])));

  it('offers every platform tier, in platform order, to a broker without a restriction', async () => {
    const tiers = await useCase.execute({ callerOrganizationId: 'org_any' });
    expect(tiers.map((tier) => tier.key)).toEqual(PLATFORM_SUB_ORG_TIERS.map((tier) => tier.key));
    expect(tiers[0]).toEqual({ object: 'sub_org_tier', ...PLATFORM_SUB_ORG_TIERS[0] });
  });

  it('offers a restricted broker only its tiers, still in platform order', async () => {
    expect((await useCase.execute({ callerOrganizationId: 'org_restricted' })).map((tier) => tier.key)).toEqual(['standard', 'vip']);
  });
});
