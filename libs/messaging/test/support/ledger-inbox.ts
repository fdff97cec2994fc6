import { newId, type EventEnvelope } from '@pfs/contracts';
import type { PrismaClient } from '@pfs/persistence';

/** An `organization.created` for a new organization named `name`, as the organization service writes it. */
export function createdEvent(name: string): EventEnvelope<'organization.created'> {
  const organizationId = newId('organization');
  return {
    id: newId('event'),
    type: 'organization.created',
    source: 'organization',
    occurredAt: '2026-11-26T09:00:00.000Z',
    requestId: null,
    aggregateId: organizationId,
    sequence: 1,
    data: { organizationId, primaryAccountId: newId('account'), name, parentOrganizationId: null, referrerOrganizationId: null, createdAt: '2026-11-26T09:00:00.000Z' },
  };
}

/** Which of these ids have a row in the ledger's inbox table, sorted. */
export async function committed(prisma: PrismaClient, ids: readonly string[]): Promise<string[]> {
  const rows = await prisma.$queryRaw<Array<{ event_id: string }>>`SELECT event_id FROM "ledger"."processed_events" WHERE event_id = ANY(${[...ids]}::text[])`;
  return rows.map((row) => row.event_id).sort();
}
