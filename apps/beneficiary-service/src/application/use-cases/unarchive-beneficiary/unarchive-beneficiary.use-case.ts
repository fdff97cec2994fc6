import { Injectable } from '@nestjs/common';
import type { BeneficiaryView } from '@pfs/contracts';
import { BeneficiaryLifecycle } from '../../beneficiary-lifecycle';
import type { UnarchiveBeneficiaryCommand } from './unarchive-beneficiary.command';

/** POST /v1/beneficiaries/{id}/unarchive: ARCHIVED → ACTIVE; anything else is `beneficiary_not_archived`. */
@Injectable()
export class UnarchiveBeneficiaryUseCase {
  constructor(private readonly lifecycle: BeneficiaryLifecycle) {}

  execute(command: UnarchiveBeneficiaryCommand): Promise<BeneficiaryView> {
    return this.lifecycle.move(command, (beneficiary, now) => beneficiary.unarchive(now));
  }
}
