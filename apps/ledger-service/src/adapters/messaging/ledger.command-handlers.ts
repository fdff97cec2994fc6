import { commandHandlers, PingUseCase } from '@pfs/messaging';
import { AdvanceTransactionUseCase } from '../../application/use-cases/advance-transaction/advance-transaction.use-case';
import { CreatePayoutUseCase } from '../../application/use-cases/create-payout/create-payout.use-case';
import { CreateTransferUseCase } from '../../application/use-cases/create-transfer/create-transfer.use-case';
import { CreditFaucetUseCase } from '../../application/use-cases/credit-faucet/credit-faucet.use-case';
import { GetAccountUseCase } from '../../application/use-cases/get-account/get-account.use-case';
import { GetAccountHolderUseCase } from '../../application/use-cases/get-account-holder/get-account-holder.use-case';
import { GetFundingMethodUseCase } from '../../application/use-cases/get-funding-method/get-funding-method.use-case';
import { GetTransactionUseCase } from '../../application/use-cases/get-transaction/get-transaction.use-case';
import { ListAccountEntriesUseCase } from '../../application/use-cases/list-account-entries/list-account-entries.use-case';
import { ListAccountsUseCase } from '../../application/use-cases/list-accounts/list-accounts.use-case';
import { ListPayoutFeesUseCase } from '../../application/use-cases/list-payout-fees/list-payout-fees.use-case';
import { ListTransactionsUseCase } from '../../application/use-cases/list-transactions/list-transactions.use-case';
import { OpenAccountUseCase } from '../../application/use-cases/open-account/open-account.use-case';
import { OpenPrimaryAccountUseCase } from '../../application/use-cases/open-primary-account/open-primary-account.use-case';
import { GetTradeUseCase } from '../../application/use-cases/get-trade/get-trade.use-case';
import { PostTradeUseCase } from '../../application/use-cases/post-trade/post-trade.use-case';
import { ProvisionFundingMethodsUseCase } from '../../application/use-cases/provision-funding-methods/provision-funding-methods.use-case';
import { UpdateAccountUseCase } from '../../application/use-cases/update-account/update-account.use-case';

/**
 * The ledger's queue: one line per command of `libs/contracts/src/commands/ledger.ts`.
 * `<resource>.<verb>` is answered by `use-cases/<verb>-<resource>/`.
 */
export const LEDGER_COMMAND_HANDLERS = commandHandlers('ledger', {
  'system.ping': PingUseCase,
  'accounts.list': ListAccountsUseCase,
  'accounts.get': GetAccountUseCase,
  'accounts.open': OpenAccountUseCase,
  'accounts.open-primary': OpenPrimaryAccountUseCase,
  'accounts.update': UpdateAccountUseCase,
  'account-entries.list': ListAccountEntriesUseCase,
  'funding-methods.provision': ProvisionFundingMethodsUseCase,
  'funding-methods.get': GetFundingMethodUseCase,
  'faucet.credit': CreditFaucetUseCase,
  'payouts.create': CreatePayoutUseCase,
  'transactions.list': ListTransactionsUseCase,
  'transactions.get': GetTransactionUseCase,
  'transactions.advance': AdvanceTransactionUseCase,
  'payout-fees.list': ListPayoutFeesUseCase,
  'account-holders.get': GetAccountHolderUseCase,
  'trades.post': PostTradeUseCase,
  'trades.get': GetTradeUseCase,
  'transfers.create': CreateTransferUseCase,
});
