import { Injectable } from '@nestjs/common';
import { Clock, EventOutbox, IdGenerator, UnitOfWork, type TransactionView } from '@pfs/contracts';
import { catalogAsset, positiveAmount } from '../../../domain/amounts';
import { internalTransfer, transferReceiver } from '../../../domain/internal-transfer';
import { assertBeneficiaryOfAccount } from '../../../domain/payout-beneficiary';
import {
  AccountNotFoundError,
  LedgerRequestError,
  PrimaryAccountNotFoundError,
  ServicenetNotEnabledError,
} from '../../../domain/ledger-errors';
import { approvedStanding } from '../../approved-standing';
import { recordStatusChange } from '../../transaction-events';
import { presentTransaction } from '../../transaction.presenter';
import { AccountRepository } from '../../ports/account.repository';
import { BeneficiaryDirectory } from '../../ports/beneficiary-directory';
import { Journal } from '../../ports/journal';
import { OrganizationDirectory } from '../../ports/organization-directory';
import { ServicenetDirectory } from '../../ports/servicenet-directory';
import { TransactionRepository } from '../../ports/transaction.repository';
import type { CreateTransferCommand } from './create-transfer.command';

/**
 * POST /v1/transfers: moves funds from the sender's account to the primary account of the
 * organization its SERVICENET beneficiary names, atomically. One database statement writes both
 * INTERNAL_TRANSFER transactions (COMPLETED at once), the one journal entry and an event for
 * each side: SENDER to the sender's audience, RECEIVER to the receiver's, each naming only its
 * own account. Answers the sender's transaction.
 *
 * What other services own is asked first: the beneficiary (beneficiary service), servicenet for
 * both organizations and their standing (organization service); then the accounts are read, and
 * only then is the statement sent. Two transfers in opposite directions lock the same two
 * balance rows; the journal locks them in (account, asset) order whatever the direction, so they
 * never deadlock.
 */
@Injectable()
export class CreateTransferUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly accounts: AccountRepository,
    private readonly transactions: TransactionRepository,
    private readonly journal: Journal,
    private readonly directory: OrganizationDirectory,
    private readonly beneficiaries: BeneficiaryDirectory,
    private readonly servicenet: ServicenetDirectory,
    private readonly outbox: EventOutbox,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(command: CreateTransferCommand): Promise<TransactionView> {
    const asset = catalogAsset(command.asset);
    const amount = positiveAmount(command.amount, asset);
    if (!(await this.servicenet.isEnabled(command.organizationId))) {
      throw new ServicenetNotEnabledError(`Servicenet is not enabled for ${command.organizationId}; enable it with POST /v1/servicenet/enable.`);
    }
    const senderStanding = await approvedStanding(this.directory, command.organizationId);
    const beneficiary = await this.beneficiaries.payable(command.organizationId, command.beneficiaryId);
    const receiverId = transferReceiver(beneficiary);
    if (!(await this.servicenet.isEnabled(receiverId))) {
      throw new ServicenetNotEnabledError(`The organization of beneficiary ${command.beneficiaryId} no longer has servicenet enabled: it cannot receive transfers now.`);
    }
    const receiverStanding = await this.directory.standing(receiverId);

    const account = await this.accounts.findOwnership(command.accountId);
    if (account?.organizationId !== command.organizationId) throw new AccountNotFoundError(command.accountId);
    if (account.status !== 'ACTIVE') throw new LedgerRequestError(`accountId: account ${command.accountId} is ${account.status}.`);
    assertBeneficiaryOfAccount(beneficiary, command.accountId);
    const receiverAccountId = await this.accounts.findPrimaryId(receiverId);
    // Opened on organization.created, so only ever missing for a moment: refused, retryable.
    if (!receiverAccountId) throw new PrimaryAccountNotFoundError(receiverId);
    const receiverAccount = await this.accounts.findOwnership(receiverAccountId);
    if (receiverAccount?.status !== 'ACTIVE') {
      // The receiver's account state is its own business: answered as unreachable, without its ids.
      throw new ServicenetNotEnabledError(`The organization of beneficiary ${command.beneficiaryId} cannot receive transfers now.`);
    }

    // Everything it decides on is read: the rows go to the database together, in one statement.
    return this.unitOfWork.write(async () => {
      const now = this.clock.now();
      const { sent, received, entry } = internalTransfer({
        sentId: this.ids.next('transaction'),
        receivedId: this.ids.next('transaction'),
        sender: { organizationId: command.organizationId, accountId: command.accountId },
        receiver: { organizationId: receiverId, accountId: receiverAccountId },
        beneficiaryId: command.beneficiaryId,
        asset: asset.code,
        amount,
        reference: command.reference,
        journalId: this.ids.next('journal'),
        now,
      });
      await this.transactions.insert(sent.transaction);
      await this.transactions.insert(received.transaction);
      // A short balance (insufficient_funds) refuses the whole statement.
      await this.journal.post(entry, now);
      await recordStatusChange(this.outbox, sent, senderStanding, now);
      await recordStatusChange(this.outbox, received, receiverStanding, now);
      return presentTransaction(sent.transaction);
    });
  }
}
