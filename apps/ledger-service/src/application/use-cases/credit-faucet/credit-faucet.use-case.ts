import { Injectable } from '@nestjs/common';
import { Clock, EventOutbox, IdGenerator, UnitOfWork, type TransactionView } from '@pfs/contracts';
import { catalogAsset, positiveAmount } from '../../../domain/amounts';
import { depositChainsFor } from '../../../domain/deposit-chains';
import { AccountNotFoundError, LedgerRequestError, SandboxOnlyError } from '../../../domain/ledger-errors';
import { Transaction } from '../../../domain/transaction';
import { approvedStanding } from '../../approved-standing';
import { recordStatusChange } from '../../transaction-events';
import { presentTransaction } from '../../transaction.presenter';
import { FundingMethodRepository } from '../../ports/funding-method.repository';
import { Journal } from '../../ports/journal';
import { LedgerSettings } from '../../ports/ledger-settings';
import { OrganizationDirectory } from '../../ports/organization-directory';
import { TransactionRepository } from '../../ports/transaction.repository';
import type { CreditFaucetCommand } from './credit-faucet.command';

/**
 * POST /v1/transactions/faucet (spec 4.6, api-decisions §5): a simulated crypto deposit to the
 * account's address on the chain. The transaction (created and completed in one step), its
 * journal entry and its one `transaction.status.updated` are written in one database statement,
 * after every check has read what it needs.
 */
@Injectable()
export class CreditFaucetUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly fundingMethods: FundingMethodRepository,
    private readonly transactions: TransactionRepository,
    private readonly journal: Journal,
    private readonly directory: OrganizationDirectory,
    private readonly settings: LedgerSettings,
    private readonly outbox: EventOutbox,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(command: CreditFaucetCommand): Promise<TransactionView> {
    if (this.settings.environment !== 'sandbox') throw new SandboxOnlyError('the faucet');
    const asset = catalogAsset(command.asset);
    if (asset.type !== 'CRYPTO') {
      throw new LedgerRequestError(`asset: ${asset.code} is a fiat asset; the faucet simulates crypto deposits only (USDC, USDT, ETH on their sandbox chains).`);
    }
    if (!depositChainsFor(asset.code).length) {
      throw new LedgerRequestError(`asset: ${asset.code} has no deposit address on any sandbox chain, so the faucet cannot credit it.`);
    }
    const amount = positiveAmount(command.amount, asset);
    if (amount.gt(this.settings.faucetMaxAmount)) {
      throw new LedgerRequestError(`amount: the sandbox faucet credits at most ${this.settings.faucetMaxAmount.toFixed()} ${asset.code} per call.`);
    }
    const standing = await approvedStanding(this.directory, command.organizationId);
    const account = await this.fundingMethods.findDepositTarget(command.accountId, asset.code);
    if (account?.organizationId !== command.organizationId) throw new AccountNotFoundError(command.accountId);
    if (account.status !== 'ACTIVE') throw new LedgerRequestError(`accountId: account ${command.accountId} is ${account.status} and cannot receive.`);
    const methods = account.methods;
    const fix = `call POST /v1/funding-methods with {"asset":"${asset.code}","accountId":"${command.accountId}"} first`;
    if (!methods.length) throw new LedgerRequestError(`asset: ${asset.code} is not activated on account ${command.accountId}: ${fix}.`);
    if (!methods.some((method) => method.chainName === command.chainName)) {
      const chains = methods.map((method) => method.chainName).filter((chain): chain is string => chain !== null);
      throw new LedgerRequestError(
        `chainName: account ${command.accountId} has no ${asset.code} deposit address on ${command.chainName}` +
          `; its ${asset.code} addresses are on ${chains.join(', ')}.`,
      );
    }
    // Everything it decides on is read: the rows go to the database together, in one round trip.
    return this.unitOfWork.write(async () => {
      const now = this.clock.now();
      const change = Transaction.settledCryptoDeposit({
        id: this.ids.next('transaction'),
        organizationId: command.organizationId,
        accountId: command.accountId,
        asset: asset.code,
        amount,
        chainName: command.chainName,
        journalId: this.ids.next('journal'),
        now,
      });
      await this.transactions.insert(change.transaction);
      if (change.entry) await this.journal.post(change.entry, now);
      await recordStatusChange(this.outbox, change, standing, now);
      return presentTransaction(change.transaction);
    });
  }
}
