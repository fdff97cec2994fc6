import { Injectable } from '@nestjs/common';
import type { PayableBeneficiaryView } from '@pfs/contracts';
import { BeneficiaryNotFoundError } from '../../../domain/beneficiary-errors';
import { presentPayable } from '../../beneficiary.presenter';
import { BeneficiaryRepository } from '../../ports/beneficiary.repository';
import type { GetPayableBeneficiaryQuery } from './get-payable-beneficiary.query';

/** For payouts: the details a rail needs and whether the beneficiary may be paid now (only ACTIVE). */
@Injectable()
export class GetPayableBeneficiaryUseCase {
  constructor(private readonly beneficiaries: BeneficiaryRepository) {}

  async execute(query: GetPayableBeneficiaryQuery): Promise<PayableBeneficiaryView> {
    const beneficiary = await this.beneficiaries.findById(query.beneficiaryId);
    if (!beneficiary?.isVisibleTo(query.organizationId)) throw new BeneficiaryNotFoundError(query.beneficiaryId);
    return presentPayable(beneficiary);
  }
}
