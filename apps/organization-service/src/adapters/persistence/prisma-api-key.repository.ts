import { Injectable } from '@nestjs/common';
import type { ServiceEnvironment } from '@pfs/contracts';
import { isUniqueViolation, PrismaTransactionHost, type Prisma } from '@pfs/persistence';
import { ApiKeyRepository } from '../../application/ports/api-key.repository';
import { ApiKey } from '../../domain/api-key';
import { ApiKeyCollisionError, ApiKeyNotFoundError } from '../../domain/organization-errors';

type ApiKeyRow = Prisma.ApiKeyGetPayload<object>;

@Injectable()
export class PrismaApiKeyRepository extends ApiKeyRepository {
  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  async insert(apiKey: ApiKey): Promise<void> {
    try {
      await this.host.client.apiKey.create({
        data: {
          id: apiKey.id,
          organizationId: apiKey.organizationId,
          keyHash: apiKey.keyHash,
          hint: apiKey.hint,
          environment: apiKey.environment,
          createdAt: apiKey.createdAt,
          revokedAt: apiKey.revokedAt,
        },
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiKeyCollisionError();
      throw error;
    }
  }

  async findById(keyId: string): Promise<ApiKey | null> {
    const row = await this.host.client.apiKey.findUnique({ where: { id: keyId } });
    return row ? toApiKey(row) : null;
  }

  async findByHash(keyHash: string): Promise<ApiKey | null> {
    const row = await this.host.client.apiKey.findUnique({ where: { keyHash } });
    return row ? toApiKey(row) : null;
  }

  async saveRevocation(apiKey: ApiKey): Promise<ApiKey> {
    const db = this.host.client;
    // Only an active key is stamped, so a concurrent revocation keeps its earlier time.
    await db.apiKey.updateMany({ where: { id: apiKey.id, revokedAt: null }, data: { revokedAt: apiKey.revokedAt } });
    const row = await db.apiKey.findUnique({ where: { id: apiKey.id } });
    if (!row) throw new ApiKeyNotFoundError(apiKey.id);
    return toApiKey(row);
  }
}

function toApiKey(row: ApiKeyRow): ApiKey {
  return new ApiKey(
    row.id,
    row.organizationId,
    row.keyHash,
    row.hint,
    row.environment as ServiceEnvironment,
    row.createdAt,
    row.revokedAt,
  );
}
