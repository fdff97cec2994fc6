import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork, type BeneficiaryView } from '@pfs/contracts';
import type { Beneficiary } from '../domain/beneficiary';
import { BeneficiaryNotFoundError } from '../domain/beneficiary-errors';
import { presentBeneficiary } from './beneficiary.presenter';
import { BeneficiaryRepository } from './ports/beneficiary.repository';

/** One status move of one of the organization's beneficiaries, under its row lock; the move's rules are the aggregate's. */
@Injectable()
export class BeneficiaryLifecycle {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly beneficiaries: BeneficiaryRepository,
    private readonly clock: Clock,
  ) {}

  move(target: { organizationId: string; beneficiaryId: string }, step: (beneficiary: Beneficiary, now: Date) => Beneficiary): Promise<BeneficiaryView> {
    return this.unitOfWork.run(async () => {
      const current = await this.beneficiaries.findByIdForUpdate(target.beneficiaryId);
      if (!current?.isVisibleTo(target.organizationId)) throw new BeneficiaryNotFoundError(target.beneficiaryId);
      const moved = step(current, this.clock.now());
      await this.beneficiaries.save(moved);
      return presentBeneficiary(moved);
    });
  }
}
