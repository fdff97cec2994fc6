import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork, type BeneficiaryView } from '@pfs/contracts';
import { AccountNotFoundError, BeneficiaryNotFoundError } from '../../../domain/beneficiary-errors';
import { presentBeneficiary } from '../../beneficiary.presenter';
import { AccountDirectory } from '../../ports/account-directory';
import { BeneficiaryRepository } from '../../ports/beneficiary.repository';
import { BeneficiarySettings } from '../../ports/beneficiary-settings';
import type { UpdateBeneficiaryCommand } from './update-beneficiary.command';

/**
 * PATCH /v1/beneficiaries/{id} (spec 4.5): omitted fields unchanged, null clears; the result is
 * validated whole. A new account must be the caller's; a new destination is checked for
 * duplicates again.
 */
@Injectable()
export class UpdateBeneficiaryUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly beneficiaries: BeneficiaryRepository,
    private readonly accounts: AccountDirectory,
    private readonly settings: BeneficiarySettings,
    private readonly clock: Clock,
  ) {}

  async execute(command: UpdateBeneficiaryCommand): Promise<BeneficiaryView> {
    // Asked of the ledger before the transaction opens, whenever the PATCH names an account
    // (whether it is a move is known only under the row lock): no connection waits on the ledger.
    const named = command.changes.accountId;
    const ownsNamedAccount = typeof named === 'string' ? await this.accounts.isAccountOf(command.organizationId, named) : null;
    return this.unitOfWork.run(async () => {
      const current = await this.beneficiaries.findByIdForUpdate(command.beneficiaryId);
      if (!current?.isVisibleTo(command.organizationId)) throw new BeneficiaryNotFoundError(command.beneficiaryId);
      let updated = current.patch(command.changes, this.settings.environment, this.clock.now());
      const { accountId } = updated.props;
      if (accountId !== current.props.accountId && !ownsNamedAccount) throw new AccountNotFoundError(accountId);
      if (updated.destinationKey() !== current.destinationKey()) updated = updated.markDuplicateOf(await this.beneficiaries.earliestWithSameDestination(updated));
      await this.beneficiaries.save(updated);
      return presentBeneficiary(updated);
    });
  }
}
