import { randomBytes } from 'node:crypto';
import { Clock, SystemClock, RandomIdGenerator } from '@pfs/contracts';
import { PrismaEventOutbox } from '@pfs/messaging';
import { createPrismaClient, PrismaTransactionHost, PrismaUnitOfWork, type Prisma, type PrismaClient } from '@pfs/persistence';
import { readPlatformConfig, type PlatformConfig } from '@pfs/platform';
import { PrismaApiKeyRepository } from '../../src/adapters/persistence/prisma-api-key.repository';
import { PrismaOrganizationAssetRepository } from '../../src/adapters/persistence/prisma-organization-asset.repository';
import { PrismaOrganizationRepository } from '../../src/adapters/persistence/prisma-organization.repository';
import { PepperedApiKeyHasher } from '../../src/adapters/security/peppered-api-key.hasher';
import { RandomApiKeyGenerator } from '../../src/adapters/security/random-api-key.generator';
import { ApiKeyIssuer } from '../../src/application/api-key.issuer';
import { ApiKeyGenerator, type GeneratedApiKey } from '../../src/application/ports/api-key-generator';
import { AuthenticateApiKeyUseCase } from '../../src/application/use-cases/authenticate-api-key/authenticate-api-key.use-case';
import { CreateApiKeyUseCase } from '../../src/application/use-cases/create-api-key/create-api-key.use-case';
import { CreateRootOrganizationUseCase } from '../../src/application/use-cases/create-root-organization/create-root-organization.use-case';
import { ListAssetsUseCase } from '../../src/application/use-cases/list-assets/list-assets.use-case';
import { RevokeApiKeyUseCase } from '../../src/application/use-cases/revoke-api-key/revoke-api-key.use-case';
import { InMemoryPrimaryAccountOpener } from './in-memory/in-memory-primary-account-opener';

/** A clock the test moves by hand. */
export class FixedClock extends Clock {
  constructor(public time: Date) {
    super();
  }

  now(): Date {
    return new Date(this.time);
  }
}

/** Hands out the keys it was given, in order, then falls back to random ones. */
export class PinnedApiKeyGenerator extends ApiKeyGenerator {
  private readonly random: ApiKeyGenerator;

  constructor(
    config: PlatformConfig,
    private readonly pinned: string[],
  ) {
    super();
    this.random = new RandomApiKeyGenerator(config);
  }

  generate(): GeneratedApiKey {
    const plain = this.pinned.shift();
    return plain ? { plain, environment: 'sandbox' } : this.random.generate();
  }
}

export interface KitOptions {
  clock?: Clock;
  generator?: (config: PlatformConfig) => ApiKeyGenerator;
}

/**
 * The organization service's use cases wired by hand to the real Prisma adapters and the real
 * outbox, against the test database: no Nest and no queues, so a use case's effect on the
 * tables is all there is to observe.
 */
export function createOrganizationTestKit(options: KitOptions = {}) {
  const config = readPlatformConfig();
  const prisma: PrismaClient = createPrismaClient({ databaseUrl: config.databaseUrl, applicationName: 'organization-test', poolSize: 4 });
  const host = new PrismaTransactionHost(prisma);
  const unitOfWork = new PrismaUnitOfWork(host);
  const clock = options.clock ?? new SystemClock();
  const outbox = new PrismaEventOutbox(host, 'organization', 'organization', clock);
  const ids = new RandomIdGenerator();
  const organizations = new PrismaOrganizationRepository(host);
  const keys = new PrismaApiKeyRepository(host);
  const assets = new PrismaOrganizationAssetRepository(host);
  const hasher = new PepperedApiKeyHasher(config);
  const generator = options.generator?.(config) ?? new RandomApiKeyGenerator(config);
  const issuer = new ApiKeyIssuer(keys, generator, hasher, ids, clock);
  // The ledger is another service: its side of opening primary accounts is kept in memory here.
  const primaryAccounts = new InMemoryPrimaryAccountOpener();
  return {
    config,
    prisma,
    hasher,
    organizations,
    keys,
    assets,
    unitOfWork,
    primaryAccounts,
    createRootOrganization: new CreateRootOrganizationUseCase(unitOfWork, organizations, issuer, outbox, ids, clock, primaryAccounts),
    createApiKey: new CreateApiKeyUseCase(unitOfWork, organizations, issuer),
    revokeApiKey: new RevokeApiKeyUseCase(unitOfWork, keys, clock),
    authenticate: new AuthenticateApiKeyUseCase(keys),
    listAssets: new ListAssetsUseCase(organizations, assets),
    close: () => prisma.$disconnect(),
  };
}

export type OrganizationTestKit = ReturnType<typeof createOrganizationTestKit>;

/** Names unique per test, so tests can share one database. */
export function uniqueName(label = 'Org'): string {
  return `${label} ${randomBytes(6).toString('hex')}`;
}

export type OutboxRow = Prisma.OrganizationOutboxEventGetPayload<object>;

/** The outbox rows recorded for one organization. */
export async function outboxRowsFor(prisma: PrismaClient, organizationId: string): Promise<OutboxRow[]> {
  const rows = await prisma.organizationOutboxEvent.findMany({
    where: { payload: { path: ['data', 'organizationId'], equals: organizationId } },
  });
  // In the order they were numbered for the organization.
  const sequence = (row: OutboxRow) => (row.payload as { sequence: number }).sequence;
  return rows.sort((left, right) => sequence(left) - sequence(right));
}
