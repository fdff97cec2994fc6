import { CursorCodec, type ServiceEnvironment } from '@pfs/contracts';
import { InMemoryEventOutbox, InMemoryUnitOfWork, ManualClock, SeededRandomSource, SequentialIdGenerator } from '@pfs/test-doubles';
import { AdvanceTransactionUseCase } from '../../../src/application/use-cases/advance-transaction/advance-transaction.use-case';
import { CreatePayoutUseCase } from '../../../src/application/use-cases/create-payout/create-payout.use-case';
import { CreditFaucetUseCase } from '../../../src/application/use-cases/credit-faucet/credit-faucet.use-case';
import { GetAccountHolderUseCase } from '../../../src/application/use-cases/get-account-holder/get-account-holder.use-case';
import { GetTransactionUseCase } from '../../../src/application/use-cases/get-transaction/get-transaction.use-case';
import { ListPayoutFeesUseCase } from '../../../src/application/use-cases/list-payout-fees/list-payout-fees.use-case';
import { ListAccountEntriesUseCase } from '../../../src/application/use-cases/list-account-entries/list-account-entries.use-case';
import { ListTransactionsUseCase } from '../../../src/application/use-cases/list-transactions/list-transactions.use-case';
import { OpenAccountUseCase } from '../../../src/application/use-cases/open-account/open-account.use-case';
import { GetTradeUseCase } from '../../../src/application/use-cases/get-trade/get-trade.use-case';
import { PostTradeUseCase } from '../../../src/application/use-cases/post-trade/post-trade.use-case';
import { ProvisionFundingMethodsUseCase } from '../../../src/application/use-cases/provision-funding-methods/provision-funding-methods.use-case';
import { SettlePayoutsUseCase } from '../../../src/application/use-cases/settle-payouts/settle-payouts.use-case';
import { PayoutRails } from '../../../src/application/ports/payout-rail';
import { SandboxCryptoRail, SandboxFiatRail } from '../../../src/adapters/rails/sandbox-rails';
import { UpdateAccountUseCase } from '../../../src/application/use-cases/update-account/update-account.use-case';
import { Account } from '../../../src/domain/account';
import { FixedLedgerSettings } from './fixed-ledger-settings';
import { InMemoryAccountRepository } from './in-memory-account.repository';
import { InMemoryBeneficiaryDirectory } from './in-memory-beneficiary-directory';
import { InMemoryFundingMethodRepository } from './in-memory-funding-method.repository';
import { InMemoryJournal } from './in-memory-journal';
import { InMemoryOrganizationDirectory } from './in-memory-organization-directory';
import { InMemoryTransactionRepository } from './in-memory-transaction.repository';


/**
 * The ledger's money use cases wired in memory: no database, no Redis, the organization
 * service's answers set by the test, time standing still unless the test moves it.
 */
export function ledgerInMemory(options: { environment?: ServiceEnvironment; faucetMaxAmount?: string; payoutFees?: string } = {}) {
  const clock = new ManualClock();
  const ids = new SequentialIdGenerator();
  const unitOfWork = new InMemoryUnitOfWork();
  const outbox = new InMemoryEventOutbox(clock);
  const cursors = new CursorCodec('test-cursor-secret');
  const accounts = new InMemoryAccountRepository();
  const fundingMethods = new InMemoryFundingMethodRepository(accounts);
  const transactions = new InMemoryTransactionRepository();
  const journal = new InMemoryJournal();
  const directory = new InMemoryOrganizationDirectory();
  const beneficiaries = new InMemoryBeneficiaryDirectory();
  const rails = new PayoutRails([new SandboxFiatRail(), new SandboxCryptoRail()]);
  const settings = new FixedLedgerSettings(options.environment ?? 'sandbox', options);
  const provision = new ProvisionFundingMethodsUseCase(unitOfWork, accounts, fundingMethods, new SeededRandomSource('ledger'), ids, outbox, clock);
  return {
    clock,
    ids,
    outbox,
    accounts,
    transactions,
    journal,
    directory,
    beneficiaries,
    settings,
    creditFaucet: new CreditFaucetUseCase(unitOfWork, fundingMethods, transactions, journal, directory, settings, outbox, ids, clock),
    createPayout: new CreatePayoutUseCase(unitOfWork, accounts, transactions, journal, directory, beneficiaries, rails, settings, ids, clock),
    settlePayouts: new SettlePayoutsUseCase(unitOfWork, transactions, journal, directory, rails, outbox, settings, ids, clock),
    advanceTransaction: new AdvanceTransactionUseCase(unitOfWork, transactions, journal, directory, outbox, settings, ids, clock),
    getTransaction: new GetTransactionUseCase(transactions),
    listTransactions: new ListTransactionsUseCase(transactions, cursors),
    openAccount: new OpenAccountUseCase(unitOfWork, accounts, ids, clock),
    updateAccount: new UpdateAccountUseCase(unitOfWork, accounts, clock),
    listAccountEntries: new ListAccountEntriesUseCase(accounts, journal, cursors),
    listPayoutFees: new ListPayoutFeesUseCase(settings),
    getAccountHolder: new GetAccountHolderUseCase(accounts),
    // Rolls back like the database, so a refused trade is seen to write nothing. One caller at a time.
    postTrade: new PostTradeUseCase(
      new InMemoryUnitOfWork([transactions, journal, { snapshot: () => rewind(outbox.events) }]),
      accounts,
      transactions,
      journal,
      directory,
      outbox,
      ids,
      clock,
    ),
    getTrade: new GetTradeUseCase(transactions),
    /** An organization known to the directory (approved unless told), with its primary account and `assets` activated on it. */
    async organization(
      setup: { assets?: string[]; verificationStatus?: 'APPROVED' | 'PENDING' | 'ON_HOLD'; parentOrganizationId?: string; referrerOrganizationId?: string } = {},
    ) {
      const organizationId = ids.next('organization');
      const accountId = ids.next('account');
      await accounts.openIfAbsent(Account.openPrimary(accountId, organizationId, clock.now()));
      directory.set({
        organizationId,
        verificationStatus: setup.verificationStatus ?? 'APPROVED',
        parentOrganizationId: setup.parentOrganizationId ?? null,
        referrerOrganizationId: setup.referrerOrganizationId ?? null,
      });
      for (const asset of setup.assets ?? []) await provision.execute({ organizationId, accountId, asset });
      return { organizationId, accountId };
    },
  };
}

export type LedgerInMemory = ReturnType<typeof ledgerInMemory>;

/** Undoes appends to `list` made after this call. */
function rewind(list: unknown[]): () => void {
  const length = list.length;
  return () => {
    list.splice(length);
  };
}
