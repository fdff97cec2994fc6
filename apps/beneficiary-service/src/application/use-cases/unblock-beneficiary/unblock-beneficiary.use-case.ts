import { Injectable } from '@nestjs/common';
import type { BeneficiaryView } from '@pfs/contracts';
import { SandboxOnlyError } from '../../../domain/beneficiary-errors';
import { BeneficiaryLifecycle } from '../../beneficiary-lifecycle';
import { BeneficiarySettings } from '../../ports/beneficiary-settings';
import type { UnblockBeneficiaryCommand } from './unblock-beneficiary.command';

/** Sandbox POST /v1/sandbox/beneficiaries/{id}/unblock: BLOCKED → ACTIVE. */
@Injectable()
export class UnblockBeneficiaryUseCase {
  constructor(
    private readonly lifecycle: BeneficiaryLifecycle,
    private readonly settings: BeneficiarySettings,
  ) {}

  async execute(command: UnblockBeneficiaryCommand): Promise<BeneficiaryView> {
    if (this.settings.environment !== 'sandbox') throw new SandboxOnlyError();
    return this.lifecycle.move(command, (beneficiary, now) => beneficiary.unblock(now));
  }
}
