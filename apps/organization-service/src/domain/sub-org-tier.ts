import type { SubOrgTier } from '@pfs/contracts';
import { SubOrgTierNotAvailableError, SubOrgTierNotFoundError } from './sub-org-tier-errors';

export type { SubOrgTier };

/** The platform's tiers (api-decisions §6), in the order they are listed. */
export const PLATFORM_SUB_ORG_TIERS: readonly SubOrgTier[] = [
  { key: 'standard', label: 'Standard', spreadBps: 100, referrerShareBps: 0 },
  { key: 'preferred', label: 'Preferred', spreadBps: 60, referrerShareBps: 20 },
  { key: 'vip', label: 'VIP', spreadBps: 30, referrerShareBps: 30 },
];

/**
 * Which tiers a broker may assign: every platform tier unless the operator restricted that broker
 * to some keys (`restriction`), in platform order.
 */
export function tiersOffered(tiers: readonly SubOrgTier[], restriction: readonly string[] | null): SubOrgTier[] {
  return restriction ? tiers.filter((tier) => restriction.includes(tier.key)) : [...tiers];
}

/** The tier a key names, checked against what the broker is offered; a removal (null) is always allowed. */
export function tierToAssign(tiers: readonly SubOrgTier[], offered: readonly SubOrgTier[], key: string | null): SubOrgTier | null {
  if (key === null) return null;
  const tier = tiers.find((candidate) => candidate.key === key);
  if (!tier) throw new SubOrgTierNotFoundError(key);
  if (!offered.some((candidate) => candidate.key === key)) throw new SubOrgTierNotAvailableError(key);
  return tier;
}

/** One row of the append-only history: `tierKey` null is a removal. */
export interface SubOrgTierAssignment {
  organizationId: string;
  tierKey: string | null;
  assignedAt: Date;
  /** The broker that made the change. */
  assignedBy: string;
}
