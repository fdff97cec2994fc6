import type { ServiceEnvironment } from '@pfs/contracts';

export interface GeneratedApiKey {
  /** The plain key: handed to the caller once, never stored or logged. */
  plain: string;
  environment: ServiceEnvironment;
}

/** Randomness behind a port, so tests can pin the key. */
export abstract class ApiKeyGenerator {
  abstract generate(): GeneratedApiKey;
}
