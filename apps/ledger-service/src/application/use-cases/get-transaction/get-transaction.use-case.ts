import { Injectable } from '@nestjs/common';
import type { TransactionView } from '@pfs/contracts';
import { TransactionNotFoundError } from '../../../domain/ledger-errors';
import { presentTransaction } from '../../transaction.presenter';
import { TransactionRepository } from '../../ports/transaction.repository';
import type { GetTransactionQuery } from './get-transaction.query';

/** One of the organization's transactions; another organization's answers as if it did not exist. */
@Injectable()
export class GetTransactionUseCase {
  constructor(private readonly transactions: TransactionRepository) {}

  async execute(query: GetTransactionQuery): Promise<TransactionView> {
    const transaction = await this.transactions.findById(query.transactionId);
    if (transaction?.organizationId !== query.organizationId) throw new TransactionNotFoundError(query.transactionId);
    return presentTransaction(transaction);
  }
}
