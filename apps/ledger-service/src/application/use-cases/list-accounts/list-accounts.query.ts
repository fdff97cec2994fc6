import type { PageRequest } from '@pfs/contracts';

export interface ListAccountsQuery {
  organizationId: string;
  page: PageRequest;
}
