import { DomainError } from '@pfs/contracts';

/** Also what another organization's account answers: it must look as if it did not exist. */
export class AccountNotFoundError extends DomainError {
  constructor(accountId: string) {
    super('account_not_found', `No account ${accountId} was found.`);
  }
}
