import { Injectable } from '@nestjs/common';
import type { SubOrgTierView } from '@pfs/contracts';
import { tiersOffered } from '../../../domain/sub-org-tier';
import { SubOrgTierCatalog } from '../../ports/sub-org-tier-catalog';
import { presentSubOrgTier } from '../../sub-org-tier.presenter';
import type { ListSubOrgTiersQuery } from './list-sub-org-tiers.query';

/** GET /v1/sub-org-tiers: the tiers the caller can assign to its clients. */
@Injectable()
export class ListSubOrgTiersUseCase {
  constructor(private readonly catalog: SubOrgTierCatalog) {}

  execute(query: ListSubOrgTiersQuery): Promise<SubOrgTierView[]> {
    const offered = tiersOffered(this.catalog.all(), this.catalog.restrictionFor(query.callerOrganizationId));
    return Promise.resolve(offered.map(presentSubOrgTier));
  }
}
