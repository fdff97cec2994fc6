import type { PageRequest } from '@pfs/contracts';

export interface ListAuthorizationsQuery {
  organizationId: string;
  page: PageRequest;
}
