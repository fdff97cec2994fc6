export interface SuspendReferralsCommand {
  organizationId: string;
}
