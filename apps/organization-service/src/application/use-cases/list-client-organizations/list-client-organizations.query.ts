import type { PageRequest } from '@pfs/contracts';

export interface ListClientOrganizationsQuery {
  callerOrganizationId: string;
  page: PageRequest;
}
