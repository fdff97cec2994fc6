import { Injectable } from '@nestjs/common';
import { UnitOfWork, type BeneficiaryView } from '@pfs/contracts';
import type { Beneficiary } from '../domain/beneficiary';
import { AccountNotFoundError } from '../domain/beneficiary-errors';
import { presentBeneficiary } from './beneficiary.presenter';
import { AccountDirectory } from './ports/account-directory';
import { BeneficiaryRepository } from './ports/beneficiary.repository';

/** The last step of both creates: the account must be the caller's; a second payee to the same destination is flagged, not refused. */
@Injectable()
export class BeneficiaryRegistrar {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly beneficiaries: BeneficiaryRepository,
    private readonly accounts: AccountDirectory,
  ) {}

  async register(beneficiary: Beneficiary): Promise<BeneficiaryView> {
    const { organizationId, accountId } = beneficiary.props;
    if (!(await this.accounts.isAccountOf(organizationId, accountId))) throw new AccountNotFoundError(accountId);
    return this.unitOfWork.run(async () => {
      const flagged = beneficiary.markDuplicateOf(await this.beneficiaries.earliestWithSameDestination(beneficiary));
      await this.beneficiaries.insert(flagged);
      return presentBeneficiary(flagged);
    });
  }
}
