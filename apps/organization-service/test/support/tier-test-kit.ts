import { SystemClock, type Clock } from '@pfs/contracts';
import { PrismaEventOutbox } from '@pfs/messaging';
import { PrismaTransactionHost, PrismaUnitOfWork } from '@pfs/persistence';
import { ConfiguredSubOrgTierCatalog, SUB_ORG_TIER_OFFERS_ENV } from '../../src/adapters/config/configured-sub-org-tier.catalog';
import { PrismaOrganizationRepository } from '../../src/adapters/persistence/prisma-organization.repository';
import { PrismaSubOrgTierAssignmentRepository } from '../../src/adapters/persistence/prisma-sub-org-tier-assignment.repository';
import { AssignSubOrgTierUseCase } from '../../src/application/use-cases/assign-sub-org-tier/assign-sub-org-tier.use-case';
import { GetEffectiveSubOrgTierUseCase } from '../../src/application/use-cases/get-effective-sub-org-tier/get-effective-sub-org-tier.use-case';
import { ListSubOrgTiersUseCase } from '../../src/application/use-cases/list-sub-org-tiers/list-sub-org-tiers.use-case';
import { createAccessTestKit } from './access-test-kit';

/**
 * The access kit plus the tier use cases, wired by hand to the real Prisma adapters and outbox.
 * `offers` is the operator configuration (SUB_ORG_TIER_OFFERS) the catalog reads.
 */
export function createTierTestKit(options: { clock?: Clock; offers?: string } = {}) {
  const kit = createAccessTestKit({ clock: options.clock });
  const clock = options.clock ?? new SystemClock();
  const previous = process.env[SUB_ORG_TIER_OFFERS_ENV];
  process.env[SUB_ORG_TIER_OFFERS_ENV] = options.offers ?? '';
  const catalog = new ConfiguredSubOrgTierCatalog();
  if (previous === undefined) delete process.env[SUB_ORG_TIER_OFFERS_ENV];
  else process.env[SUB_ORG_TIER_OFFERS_ENV] = previous;
  const host = new PrismaTransactionHost(kit.prisma);
  const organizations = new PrismaOrganizationRepository(host);
  const assignments = new PrismaSubOrgTierAssignmentRepository(host);
  const outbox = new PrismaEventOutbox(host, 'organization', 'organization', clock);
  return {
    ...kit,
    listTiers: new ListSubOrgTiersUseCase(catalog),
    assignTier: new AssignSubOrgTierUseCase(new PrismaUnitOfWork(host), organizations, assignments, catalog, outbox, clock),
    effectiveTier: new GetEffectiveSubOrgTierUseCase(organizations, assignments, catalog, clock),
  };
}
