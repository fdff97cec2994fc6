import { commandHandlers, PingUseCase } from '@pfs/messaging';
import { GetAccountUseCase } from '../../application/use-cases/get-account/get-account.use-case';
import { GetFundingMethodUseCase } from '../../application/use-cases/get-funding-method/get-funding-method.use-case';
import { ListAccountsUseCase } from '../../application/use-cases/list-accounts/list-accounts.use-case';
import { ProvisionFundingMethodsUseCase } from '../../application/use-cases/provision-funding-methods/provision-funding-methods.use-case';

/**
 * The ledger's queue: one line per command of `libs/contracts/src/commands/ledger.ts`.
 * `<resource>.<verb>` is answered by `use-cases/<verb>-<resource>/`.
 */
export const LEDGER_COMMAND_HANDLERS = commandHandlers('ledger', {
  'system.ping': PingUseCase,
  'accounts.list': ListAccountsUseCase,
  'accounts.get': GetAccountUseCase,
  'funding-methods.provision': ProvisionFundingMethodsUseCase,
  'funding-methods.get': GetFundingMethodUseCase,
});
