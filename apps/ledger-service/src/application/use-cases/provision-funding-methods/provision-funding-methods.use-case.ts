import { Injectable } from '@nestjs/common';
import { Clock, EventOutbox, findAsset, IdGenerator, RandomSource, UnitOfWork, type FundingMethodView } from '@pfs/contracts';
import { compareFundingMethods, missingFundingMethods } from '../../../domain/funding-method-provisioning';
import { AccountNotFoundError, PrimaryAccountNotFoundError, UnknownAssetError } from '../../../domain/ledger-errors';
import { presentFundingMethod } from '../../account.presenter';
import { AccountRepository } from '../../ports/account.repository';
import { FundingMethodRepository } from '../../ports/funding-method.repository';
import type { ProvisionFundingMethodsCommand } from './provision-funding-methods.command';

/**
 * POST /v1/funding-methods, ledger side: gives the account the receiving methods of the asset
 * it still lacks and answers all of them, so a repeated call returns the same methods. Records
 * `funding-methods.provisioned` in the same transaction: the organization service enables the
 * asset from it, whatever becomes of the gateway's own enable step.
 */
@Injectable()
export class ProvisionFundingMethodsUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly accounts: AccountRepository,
    private readonly fundingMethods: FundingMethodRepository,
    private readonly random: RandomSource,
    private readonly ids: IdGenerator,
    private readonly outbox: EventOutbox,
    private readonly clock: Clock,
  ) {}

  async execute(command: ProvisionFundingMethodsCommand): Promise<FundingMethodView[]> {
    const asset = findAsset(command.asset);
    if (!asset) throw new UnknownAssetError(command.asset);
    return this.unitOfWork.run(async () => {
      const accountId = command.accountId ?? (await this.accounts.findPrimaryId(command.organizationId));
      if (!accountId) throw new PrimaryAccountNotFoundError(command.organizationId);
      // The row lock makes concurrent first calls for one account take turns: the second sees
      // what the first provisioned instead of provisioning again.
      const owner = await this.accounts.lockOwner(accountId);
      // Another organization's account answers exactly like a missing one.
      if (owner !== command.organizationId) throw new AccountNotFoundError(accountId);
      const existing = await this.fundingMethods.listForAsset(accountId, asset.code);
      const now = this.clock.now();
      const missing = missingFundingMethods({
        accountId,
        asset,
        existing,
        now,
        random: (length) => this.random.bytes(length),
        nextId: () => this.ids.next('fundingMethod'),
      });
      if (missing.length) await this.fundingMethods.insertAll(missing);
      const methods = [...existing, ...missing].sort(compareFundingMethods);
      await this.outbox.append('funding-methods.provisioned', {
        organizationId: owner,
        accountId,
        asset: asset.code,
        fundingMethodIds: methods.map((method) => method.id),
        provisionedAt: now.toISOString(),
      });
      return methods.map(presentFundingMethod);
    });
  }
}
