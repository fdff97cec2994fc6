import type { ServiceEnvironment } from '@pfs/contracts';

/** The beneficiary service's configuration, read once at start. */
export abstract class BeneficiarySettings {
  /** Which chain catalog applies: the sandbox chains, or their mainnets in production. */
  abstract readonly environment: ServiceEnvironment;
}
