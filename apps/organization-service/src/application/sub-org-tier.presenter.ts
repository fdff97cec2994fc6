import type { SubOrgTier, SubOrgTierAssignmentView, SubOrgTierView } from '@pfs/contracts';

export function presentSubOrgTier(tier: SubOrgTier): SubOrgTierView {
  return { object: 'sub_org_tier', key: tier.key, label: tier.label, spreadBps: tier.spreadBps, referrerShareBps: tier.referrerShareBps };
}

export function presentSubOrgTierAssignment(organizationId: string, tier: SubOrgTier | null): SubOrgTierAssignmentView {
  const details = tier && { key: tier.key, label: tier.label, spreadBps: tier.spreadBps, referrerShareBps: tier.referrerShareBps };
  return { object: 'sub_org_tier_assignment', organizationId, tier: details };
}
