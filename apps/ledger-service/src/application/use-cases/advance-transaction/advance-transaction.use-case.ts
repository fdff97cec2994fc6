import { Injectable } from '@nestjs/common';
import { Clock, EventOutbox, IdGenerator, UnitOfWork, type TransactionView } from '@pfs/contracts';
import { SandboxOnlyError, TransactionNotFoundError } from '../../../domain/ledger-errors';
import { recordStatusChange } from '../../transaction-events';
import { presentTransaction } from '../../transaction.presenter';
import { Journal } from '../../ports/journal';
import { LedgerSettings } from '../../ports/ledger-settings';
import { OrganizationDirectory } from '../../ports/organization-directory';
import { TransactionRepository } from '../../ports/transaction.repository';
import type { AdvanceTransactionCommand } from './advance-transaction.command';

/**
 * POST /v1/sandbox/transactions/{id}/{lock|complete|decline|refund}: one move of the state
 * machine, its journal entry (if money moves) and its event, in one database transaction. The
 * row is locked, so two moves of one transaction take turns and each sees the other's result.
 * Sandbox only: elsewhere `not_found`, as the faucet.
 */
@Injectable()
export class AdvanceTransactionUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly transactions: TransactionRepository,
    private readonly journal: Journal,
    private readonly directory: OrganizationDirectory,
    private readonly outbox: EventOutbox,
    private readonly settings: LedgerSettings,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(command: AdvanceTransactionCommand): Promise<TransactionView> {
    // Refused here too, not only by the gateway's routing: outside the sandbox only a rail moves a payout.
    if (this.settings.environment !== 'sandbox') throw new SandboxOnlyError('moving a transaction by hand');
    const standing = await this.directory.standing(command.organizationId);
    return this.unitOfWork.run(async () => {
      const transaction = await this.transactions.findByIdForUpdate(command.transactionId);
      if (transaction?.organizationId !== command.organizationId) throw new TransactionNotFoundError(command.transactionId);
      const now = this.clock.now();
      const change = transaction.advance(command.action, this.ids.next('journal'), now);
      await this.transactions.saveStatus(change.transaction);
      if (change.entry) await this.journal.post(change.entry, now);
      await recordStatusChange(this.outbox, change, standing, now);
      return presentTransaction(change.transaction);
    });
  }
}
