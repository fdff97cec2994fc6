export interface OpenPrimaryAccountCommand {
  organizationId: string;
  /** Chosen by the organization service, so the organization can name it before it exists here. */
  accountId: string;
}
