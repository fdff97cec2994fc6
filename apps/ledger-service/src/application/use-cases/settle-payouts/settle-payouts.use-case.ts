import { Injectable } from '@nestjs/common';
import type { OrganizationStanding } from '@pfs/contracts';
import pLimit from 'p-limit';
import { Clock, EventOutbox, IdGenerator, UnitOfWork } from '@pfs/contracts';
import { SandboxOnlyError } from '../../../domain/ledger-errors';
import type { StatusChange, Transaction } from '../../../domain/transaction';
import { recordStatusChange } from '../../transaction-events';
import { Journal } from '../../ports/journal';
import { LedgerSettings } from '../../ports/ledger-settings';
import { OrganizationDirectory } from '../../ports/organization-directory';
import { PayoutRails } from '../../ports/payout-rail';
import { TransactionRepository } from '../../ports/transaction.repository';

/** What one pass did: how many payouts it moved, and `<id>: <why>` for each whose move failed (the next pass retries them). */
export interface SettlementPass {
  moved: number;
  failed: string[];
}

/** At most this many payouts per pass; the next pass takes the rest. */
const PASS_LIMIT = 100;

/**
 * Moves in flight at once within a pass. One at a time, a burst of payouts waits on one
 * organization round trip and one transaction each, in a row; a few lanes overlap those waits
 * while leaving most of the pool to commands.
 */
const PASS_LANES = 4;

/**
 * The sandbox rails settling by themselves (api-decisions §5): every payout that has waited
 * SANDBOX_SETTLE_DELAY in EXPECTED is LOCKED, every one that has waited as long in LOCKED ends
 * as its rail says (COMPLETED, or DECLINED with the rail's reason, hold and fee returned). Each
 * move is the same domain transition as the sandbox drive endpoint: the row locked, its journal
 * entry and its `transaction.status.updated` in one database transaction. Under the lock the
 * payout is checked again, so two replicas passing at once move it one step, not two.
 */
@Injectable()
export class SettlePayoutsUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly transactions: TransactionRepository,
    private readonly journal: Journal,
    private readonly directory: OrganizationDirectory,
    private readonly rails: PayoutRails,
    private readonly outbox: EventOutbox,
    private readonly settings: LedgerSettings,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<SettlementPass> {
    // The sandbox rails' own settling; a real rail reports its outcome instead.
    if (this.settings.environment !== 'sandbox') throw new SandboxOnlyError('the sandbox rails’ settlement');
    const due = await this.transactions.findPayoutsDue(this.dueBy(), PASS_LIMIT);
    const pass: SettlementPass = { moved: 0, failed: [] };
    // One standing per organization per pass: a burst of one organization's payouts asks once.
    const standings = new Map<string, Promise<OrganizationStanding>>();
    const lane = pLimit(PASS_LANES);
    await Promise.all(
      due.map((transactionId) =>
        lane(async () => {
          try {
            if (await this.settle(transactionId, standings)) pass.moved += 1;
          } catch (error) {
            pass.failed.push(`${transactionId}: ${(error as Error).message}`);
          }
        }),
      ),
    );
    return pass;
  }

  /** A payout whose last change is at or before this instant is due for its next move. */
  private dueBy(): Date {
    return new Date(this.clock.now().getTime() - this.settings.sandboxSettleDelayMs);
  }

  private async settle(transactionId: string, standings: Map<string, Promise<OrganizationStanding>>): Promise<boolean> {
    const seen = await this.transactions.findById(transactionId);
    if (!seen) return false;
    const standing = await this.standingOf(seen.organizationId, standings);
    return this.unitOfWork.run(async () => {
      const transaction = await this.transactions.findByIdForUpdate(transactionId);
      // Moved meanwhile (by another replica, or the sandbox drive endpoint): not due any more.
      if (!transaction || !this.isDue(transaction)) return false;
      const change = await this.nextMove(transaction);
      await this.transactions.saveStatus(change.transaction);
      if (change.entry) await this.journal.post(change.entry, change.transaction.props.updatedAt);
      await recordStatusChange(this.outbox, change, standing, change.transaction.props.updatedAt);
      return true;
    });
  }

  private standingOf(organizationId: string, standings: Map<string, Promise<OrganizationStanding>>): Promise<OrganizationStanding> {
    let standing = standings.get(organizationId);
    if (!standing) {
      standing = this.directory.standing(organizationId);
      standings.set(organizationId, standing);
    }
    return standing;
  }

  private isDue(transaction: Transaction): boolean {
    return transaction.isPayout && (transaction.status === 'EXPECTED' || transaction.status === 'LOCKED') && transaction.props.updatedAt <= this.dueBy();
  }

  private async nextMove(transaction: Transaction): Promise<StatusChange> {
    const now = this.clock.now();
    const journalId = this.ids.next('journal');
    if (transaction.status === 'EXPECTED') return transaction.advance('lock', journalId, now);
    const rail = transaction.payoutRail;
    if (!rail) throw new Error(`transaction ${transaction.id} is not a payout`);
    const verdict = await this.rails.for(rail).verdict(transaction);
    return verdict.settles ? transaction.advance('complete', journalId, now) : transaction.advance('decline', journalId, now, verdict.reason);
  }
}
