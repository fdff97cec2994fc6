import { Injectable } from '@nestjs/common';
import { apiKeyHint, Clock, IdGenerator } from '@pfs/contracts';
import { ApiKey } from '../domain/api-key';
import { ApiKeyGenerator } from './ports/api-key-generator';
import { ApiKeyHasher } from './ports/api-key-hasher';
import { ApiKeyRepository } from './ports/api-key.repository';

export interface IssuedApiKey {
  keyId: string;
  /** The only time the plain key exists outside the caller's hands. */
  apiKey: string;
}

/** Mints, hashes and stores a key for an organization; shared by the use cases that hand out keys. */
@Injectable()
export class ApiKeyIssuer {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly generator: ApiKeyGenerator,
    private readonly hasher: ApiKeyHasher,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async issue(organizationId: string): Promise<IssuedApiKey> {
    const generated = this.generator.generate();
    const apiKey = ApiKey.issue({
      id: this.ids.next('apiKey'),
      organizationId,
      keyHash: this.hasher.hash(generated.plain),
      hint: apiKeyHint(generated.plain),
      environment: generated.environment,
      now: this.clock.now(),
    });
    await this.keys.insert(apiKey);
    return { keyId: apiKey.id, apiKey: generated.plain };
  }
}
