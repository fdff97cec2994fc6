import type { PageRequest } from '@pfs/contracts';

export interface ListOrganizationsQuery {
  callerOrganizationId: string;
  page: PageRequest;
}
