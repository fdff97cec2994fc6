import type { ApiKey } from '../../domain/api-key';

export abstract class ApiKeyRepository {
  /** Throws ApiKeyCollisionError when another key has the same hash. */
  abstract insert(apiKey: ApiKey): Promise<void>;
  abstract findById(keyId: string): Promise<ApiKey | null>;
  abstract findByHash(keyHash: string): Promise<ApiKey | null>;
  /** Persists a revocation; the first revocation time wins if two race. */
  abstract saveRevocation(apiKey: ApiKey): Promise<ApiKey>;
}
