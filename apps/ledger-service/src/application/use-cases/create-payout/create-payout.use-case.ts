import { Injectable } from '@nestjs/common';
import { Clock, IdGenerator, UnitOfWork, type TransactionView } from '@pfs/contracts';
import { catalogAsset, positiveAmount } from '../../../domain/amounts';
import { AccountNotFoundError, LedgerRequestError } from '../../../domain/ledger-errors';
import { assertBeneficiaryOfAccount, payoutDestination } from '../../../domain/payout-beneficiary';
import { Transaction } from '../../../domain/transaction';
import { approvedStanding } from '../../approved-standing';
import { presentTransaction } from '../../transaction.presenter';
import { AccountRepository } from '../../ports/account.repository';
import { BeneficiaryDirectory } from '../../ports/beneficiary-directory';
import { Journal } from '../../ports/journal';
import { LedgerSettings } from '../../ports/ledger-settings';
import { OrganizationDirectory } from '../../ports/organization-directory';
import { PayoutRails } from '../../ports/payout-rail';
import { TransactionRepository } from '../../ports/transaction.repository';
import type { CreatePayoutCommand } from './create-payout.command';

/**
 * POST /v1/payouts/{fiat|crypto}: the beneficiary is asked of the beneficiary service and checked
 * (payoutDestination: type, status, currency or chain; then, once the paying account is
 * known to be the caller's, that the beneficiary is registered on it), the rail is
 * asked whether it takes the send (a refusal such as `chain_send_failed` holds nothing), then an
 * EXPECTED transaction holds amount + fee (the rail's fee of GET /v1/fees, in the payout asset)
 * out of the balance at once, in one database statement (a short balance refuses all of it). The payout keeps its destination as
 * the beneficiary was at that moment (masked): every later step reads that, never the beneficiary
 * again, so a PATCH of the beneficiary does not redirect a payout in flight. Creation is not a
 * transition, so no event (api-decisions §5: every transition after creation emits one).
 */
@Injectable()
export class CreatePayoutUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly accounts: AccountRepository,
    private readonly transactions: TransactionRepository,
    private readonly journal: Journal,
    private readonly directory: OrganizationDirectory,
    private readonly beneficiaries: BeneficiaryDirectory,
    private readonly rails: PayoutRails,
    private readonly settings: LedgerSettings,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(command: CreatePayoutCommand): Promise<TransactionView> {
    // First of all: a rail that cannot move money here (the sandbox's, in production) refuses before anything is asked or held.
    const rail = this.rails.forPayoutIn(command.rail, this.settings.environment);
    const asset = catalogAsset(command.asset);
    if ((command.rail === 'FIAT') !== (asset.type === 'FIAT')) {
      throw new LedgerRequestError(`asset: ${asset.code} is ${asset.type} and cannot be paid out on the ${command.rail} rail.`);
    }
    const amount = positiveAmount(command.amount, asset);
    await approvedStanding(this.directory, command.organizationId);
    const beneficiary = await this.beneficiaries.payable(command.organizationId, command.beneficiaryId);
    const { chainName, destination } = payoutDestination(command.rail, asset.code, beneficiary);
    await rail.submit({ rail: command.rail, asset: asset.code, amount, beneficiary, destination, reference: command.reference });

    const account = await this.accounts.findOwnership(command.accountId);
    if (account?.organizationId !== command.organizationId) throw new AccountNotFoundError(command.accountId);
    if (account.status !== 'ACTIVE') throw new LedgerRequestError(`accountId: account ${command.accountId} is ${account.status}.`);
    assertBeneficiaryOfAccount(beneficiary, command.accountId);

    // Everything it decides on is read: the rows go to the database together, in one statement.
    return this.unitOfWork.write(async () => {
      const now = this.clock.now();
      const { transaction, entry } = Transaction.payout({
        id: this.ids.next('transaction'),
        organizationId: command.organizationId,
        accountId: command.accountId,
        rail: command.rail,
        asset: asset.code,
        amount,
        fee: this.settings.payoutFees.feeFor(command.rail, asset.code),
        beneficiaryId: command.beneficiaryId,
        chainName,
        destination,
        reference: command.reference,
        journalId: this.ids.next('journal'),
        now,
      });
      await this.transactions.insert(transaction);
      await this.journal.post(entry, now);
      return presentTransaction(transaction);
    });
  }
}
