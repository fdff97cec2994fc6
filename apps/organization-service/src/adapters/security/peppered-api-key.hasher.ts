import { Inject, Injectable } from '@nestjs/common';
import { hashApiKey } from '@pfs/contracts';
import { PLATFORM_CONFIG } from '@pfs/messaging';
import type { PlatformConfig } from '@pfs/platform';
import { ApiKeyHasher } from '../../application/ports/api-key-hasher';

/** The same HMAC the gateway applies to a presented key, with the same pepper. */
@Injectable()
export class PepperedApiKeyHasher extends ApiKeyHasher {
  constructor(@Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig) {
    super();
  }

  hash(plainKey: string): string {
    return hashApiKey(plainKey, this.config.apiKeyPepper);
  }
}
