import { Injectable } from '@nestjs/common';
import { CursorCodec, listIdentity, type BeneficiaryView, type PageView } from '@pfs/contracts';
import { presentBeneficiary } from '../../beneficiary.presenter';
import { BeneficiaryRepository } from '../../ports/beneficiary.repository';
import type { ListBeneficiariesQuery } from './list-beneficiaries.query';

export const BENEFICIARIES_LIST = 'beneficiaries';

/** GET /v1/beneficiaries: newest first, filtered by account, type and status; a cursor is bound to its filters. */
@Injectable()
export class ListBeneficiariesUseCase {
  constructor(
    private readonly beneficiaries: BeneficiaryRepository,
    private readonly cursors: CursorCodec,
  ) {}

  execute(query: ListBeneficiariesQuery): Promise<PageView<BeneficiaryView>> {
    return this.cursors.page(
      listIdentity(BENEFICIARIES_LIST, query.organizationId, query.filters),
      query.page,
      (after, take) => this.beneficiaries.list(query.organizationId, query.filters, after, take),
      presentBeneficiary,
    );
  }
}
