import { Injectable } from '@nestjs/common';
import type { BeneficiaryView } from '@pfs/contracts';
import { BeneficiaryNotFoundError } from '../../../domain/beneficiary-errors';
import { presentBeneficiary } from '../../beneficiary.presenter';
import { BeneficiaryRepository } from '../../ports/beneficiary.repository';
import type { GetBeneficiaryQuery } from './get-beneficiary.query';

/** GET /v1/beneficiaries/{id}: another organization's answers as if it did not exist. */
@Injectable()
export class GetBeneficiaryUseCase {
  constructor(private readonly beneficiaries: BeneficiaryRepository) {}

  async execute(query: GetBeneficiaryQuery): Promise<BeneficiaryView> {
    const beneficiary = await this.beneficiaries.findById(query.beneficiaryId);
    if (!beneficiary?.isVisibleTo(query.organizationId)) throw new BeneficiaryNotFoundError(query.beneficiaryId);
    return presentBeneficiary(beneficiary);
  }
}
