/** Who is on servicenet (internal transfers): the organization service's to answer. */
export abstract class ServicenetDirectory {
  /** Whether the organization has servicenet enabled now. */
  abstract isEnabled(organizationId: string): Promise<boolean>;
}
