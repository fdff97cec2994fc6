import { Injectable } from '@nestjs/common';
import { Clock } from '@pfs/contracts';
import { QuoteReconciler, type ReconcileCounts } from '../../quote-reconciler';

/**
 * The sweeper's pass: every PENDING quote past its expiry is settled with the ledger, COMPLETED
 * with the trade it holds for it or else EXPIRED, so the rows agree with the ledger without
 * waiting for a reader or a client's retry.
 */
@Injectable()
export class ReconcileQuotesUseCase {
  constructor(
    private readonly reconciler: QuoteReconciler,
    private readonly clock: Clock,
  ) {}

  execute(): Promise<ReconcileCounts> {
    return this.reconciler.settleDue(this.clock.now());
  }
}
