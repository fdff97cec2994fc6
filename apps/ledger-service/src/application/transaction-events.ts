import type { EventOutbox, OrganizationStanding } from '@pfs/contracts';
import type { StatusChange } from '../domain/transaction';

/**
 * Writes `transaction.status.updated` for a change (spec 6.2's data, snake_case) with its
 * audience beside it (spec 6.4): the organization, its creator, and whether the creator is
 * covered by an ACTIVE LOA, which decides whether the creator receives it.
 */
export async function recordStatusChange(outbox: EventOutbox, change: StatusChange, standing: OrganizationStanding, at: Date): Promise<void> {
  const t = change.transaction.props;
  await outbox.append(
    'transaction.status.updated',
    {
      object: 'transaction',
      transaction_id: t.id,
      transaction_type: t.type,
      status: t.status,
      previous_status: change.previousStatus,
      account_id: t.accountId,
      organization_id: t.organizationId,
      role: t.role,
      occurred_at: at.toISOString(),
    },
    {
      organizationId: standing.organizationId,
      parentOrganizationId: standing.parentOrganizationId,
      parentHoldsActiveLoa: standing.parentHoldsActiveLoa,
    },
  );
}
