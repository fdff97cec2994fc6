import { PrimaryAccountOpener, type PrimaryAccount } from '../../../src/application/ports/primary-account-opener';

/** The ledger's side of `accounts.open-primary`, in memory: idempotent, as the ledger is. */
export class InMemoryPrimaryAccountOpener extends PrimaryAccountOpener {
  /** The accounts open, each once, in the order they were opened. */
  readonly opened: PrimaryAccount[] = [];
  /** Every request as it arrived, repeats and failed ones included. */
  readonly requests: PrimaryAccount[] = [];
  /** When set, every request fails with it, as an unreachable ledger would. */
  failWith: Error | null = null;
  /** Called with each request as it arrives: a test looks at the state the request is made in. */
  onRequest: ((account: PrimaryAccount) => void) | null = null;

  async open(account: PrimaryAccount): Promise<void> {
    this.requests.push(account);
    this.onRequest?.(account);
    if (this.failWith) throw this.failWith;
    if (!this.opened.some((open) => open.accountId === account.accountId)) this.opened.push({ ...account });
  }
}
