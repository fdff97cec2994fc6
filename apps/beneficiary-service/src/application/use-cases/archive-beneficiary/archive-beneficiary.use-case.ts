import { Injectable } from '@nestjs/common';
import type { BeneficiaryView } from '@pfs/contracts';
import { BeneficiaryLifecycle } from '../../beneficiary-lifecycle';
import type { ArchiveBeneficiaryCommand } from './archive-beneficiary.command';

/** POST /v1/beneficiaries/{id}/archive: ACTIVE or INACTIVE → ARCHIVED; again is `beneficiary_already_archived`, a blocked one `beneficiary_blocked`. */
@Injectable()
export class ArchiveBeneficiaryUseCase {
  constructor(private readonly lifecycle: BeneficiaryLifecycle) {}

  execute(command: ArchiveBeneficiaryCommand): Promise<BeneficiaryView> {
    return this.lifecycle.move(command, (beneficiary, now) => beneficiary.archive(now));
  }
}
