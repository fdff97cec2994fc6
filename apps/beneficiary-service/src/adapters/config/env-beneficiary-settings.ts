import type { ServiceEnvironment } from '@pfs/contracts';
import { BeneficiarySettings } from '../../application/ports/beneficiary-settings';

/** SERVICE_ENV decides the chain catalog: the sandbox chains, or their mainnets in production. */
export class EnvBeneficiarySettings extends BeneficiarySettings {
  constructor(readonly environment: ServiceEnvironment) {
    super();
  }
}
