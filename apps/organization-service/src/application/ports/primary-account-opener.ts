/** The primary account a new organization holds, under the id this service chose for it. */
export interface PrimaryAccount {
  organizationId: string;
  accountId: string;
}

/**
 * The ledger, which owns accounts: opens a new organization's primary account, or finds it open.
 * Asked after the organization's transaction has committed and before the command answers, so
 * what the answer names is usable in the very next request. Idempotent: asking twice, or after
 * the ledger opened it from `organization.created`, changes nothing.
 */
export abstract class PrimaryAccountOpener {
  abstract open(account: PrimaryAccount): Promise<void>;
}
