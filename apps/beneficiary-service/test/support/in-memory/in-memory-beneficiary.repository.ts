import type { CursorPosition } from '@pfs/contracts';
import { newestFirstPage } from '@pfs/test-doubles';
import { BeneficiaryRepository, type BeneficiaryFilters } from '../../../src/application/ports/beneficiary.repository';
import type { Beneficiary } from '../../../src/domain/beneficiary';

/** The BeneficiaryRepository contract over a map, for use-case unit tests (no sealing: that is the adapter's). */
export class InMemoryBeneficiaryRepository extends BeneficiaryRepository {
  readonly beneficiaries = new Map<string, Beneficiary>();

  async insert(beneficiary: Beneficiary): Promise<void> {
    this.beneficiaries.set(beneficiary.id, beneficiary);
  }

  async findById(beneficiaryId: string): Promise<Beneficiary | null> {
    return this.beneficiaries.get(beneficiaryId) ?? null;
  }

  findByIdForUpdate(beneficiaryId: string): Promise<Beneficiary | null> {
    return this.findById(beneficiaryId);
  }

  async save(beneficiary: Beneficiary): Promise<void> {
    this.beneficiaries.set(beneficiary.id, beneficiary);
  }

  async list(organizationId: string, filters: BeneficiaryFilters, after: CursorPosition | null, limit: number): Promise<Beneficiary[]> {
    const matching = [...this.beneficiaries.values()].filter(
      ({ props: b }) =>
        b.organizationId === organizationId &&
        (filters.accountId === undefined || b.accountId === filters.accountId) &&
        (filters.type === undefined || b.type === filters.type) &&
        (filters.status === undefined || b.status === filters.status),
    );
    return newestFirstPage(matching, after, limit);
  }

  async earliestWithSameDestination(beneficiary: Beneficiary): Promise<string | null> {
    const key = beneficiary.destinationKey();
    const same = [...this.beneficiaries.values()]
      .filter((other) => other.id !== beneficiary.id && other.destinationKey() === key)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
    return same[0]?.id ?? null;
  }
}
