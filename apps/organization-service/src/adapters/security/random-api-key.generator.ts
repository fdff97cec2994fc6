import { Inject, Injectable } from '@nestjs/common';
import { generateApiKey } from '@pfs/contracts';
import { PLATFORM_CONFIG } from '@pfs/messaging';
import type { PlatformConfig } from '@pfs/platform';
import { ApiKeyGenerator, type GeneratedApiKey } from '../../application/ports/api-key-generator';

/** `sk_test_…` in sandbox, `sk_live_…` in production: 256 bits from the OS CSPRNG. */
@Injectable()
export class RandomApiKeyGenerator extends ApiKeyGenerator {
  constructor(@Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig) {
    super();
  }

  generate(): GeneratedApiKey {
    return { plain: generateApiKey(this.config.serviceEnv), environment: this.config.serviceEnv };
  }
}
