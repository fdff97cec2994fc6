import { Injectable } from '@nestjs/common';
import type { BeneficiaryView } from '@pfs/contracts';
import { SandboxOnlyError } from '../../../domain/beneficiary-errors';
import { BeneficiaryLifecycle } from '../../beneficiary-lifecycle';
import { BeneficiarySettings } from '../../ports/beneficiary-settings';
import type { BlockBeneficiaryCommand } from './block-beneficiary.command';

/** Sandbox POST /v1/sandbox/beneficiaries/{id}/block: ACTIVE or INACTIVE → BLOCKED, so a partner can rehearse a payout to a blocked payee. */
@Injectable()
export class BlockBeneficiaryUseCase {
  constructor(
    private readonly lifecycle: BeneficiaryLifecycle,
    private readonly settings: BeneficiarySettings,
  ) {}

  async execute(command: BlockBeneficiaryCommand): Promise<BeneficiaryView> {
    if (this.settings.environment !== 'sandbox') throw new SandboxOnlyError();
    return this.lifecycle.move(command, (beneficiary, now) => beneficiary.block(now));
  }
}
