export interface ResumeReferralsCommand {
  organizationId: string;
}
