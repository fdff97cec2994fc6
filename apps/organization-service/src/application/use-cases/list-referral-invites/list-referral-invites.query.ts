import type { PageRequest } from '@pfs/contracts';

export interface ListReferralInvitesQuery {
  referrerOrganizationId: string;
  page: PageRequest;
}
