import { ApiKeyRepository } from '../../../src/application/ports/api-key.repository';
import type { ApiKey } from '../../../src/domain/api-key';
import { ApiKeyCollisionError } from '../../../src/domain/organization-errors';

/** The ApiKeyRepository contract over a map: a second key with the same hash is a collision. */
export class InMemoryApiKeyRepository extends ApiKeyRepository {
  readonly rows = new Map<string, ApiKey>();

  async insert(apiKey: ApiKey): Promise<void> {
    if ([...this.rows.values()].some((row) => row.keyHash === apiKey.keyHash)) throw new ApiKeyCollisionError();
    this.rows.set(apiKey.id, apiKey);
  }

  async findById(keyId: string): Promise<ApiKey | null> {
    return this.rows.get(keyId) ?? null;
  }

  async findByHash(keyHash: string): Promise<ApiKey | null> {
    return [...this.rows.values()].find((row) => row.keyHash === keyHash) ?? null;
  }

  async saveRevocation(apiKey: ApiKey): Promise<ApiKey> {
    // The first revocation time wins, as in the table.
    const stored = this.rows.get(apiKey.id);
    if (stored && !stored.isActive) return stored;
    this.rows.set(apiKey.id, apiKey);
    return apiKey;
  }
}
