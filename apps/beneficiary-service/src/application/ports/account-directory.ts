/** Which accounts belong to which organization: the ledger's to answer (this service keeps no copy). */
export abstract class AccountDirectory {
  abstract isAccountOf(organizationId: string, accountId: string): Promise<boolean>;
}
