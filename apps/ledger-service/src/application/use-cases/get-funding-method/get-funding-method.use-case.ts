import { Injectable } from '@nestjs/common';
import type { FundingMethodView } from '@pfs/contracts';
import { FundingMethodNotFoundError } from '../../../domain/ledger-errors';
import { presentFundingMethod } from '../../account.presenter';
import { FundingMethodRepository } from '../../ports/funding-method.repository';
import type { GetFundingMethodQuery } from './get-funding-method.query';

@Injectable()
export class GetFundingMethodUseCase {
  constructor(private readonly fundingMethods: FundingMethodRepository) {}

  async execute(query: GetFundingMethodQuery): Promise<FundingMethodView> {
    const found = await this.fundingMethods.findById(query.fundingMethodId);
    // A method on another organization's account answers exactly like a missing one.
    if (!found || found.organizationId !== query.organizationId) throw new FundingMethodNotFoundError(query.fundingMethodId);
    return presentFundingMethod(found.method);
  }
}
