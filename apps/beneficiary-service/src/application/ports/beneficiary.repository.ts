import type { BeneficiaryStatus, BeneficiaryType, CursorPosition } from '@pfs/contracts';
import type { Beneficiary } from '../../domain/beneficiary';

export interface BeneficiaryFilters {
  accountId?: string;
  type?: BeneficiaryType;
  status?: BeneficiaryStatus;
}

/** Beneficiaries at rest; sealing the account numbers and tax ids is the adapter's job. */
export abstract class BeneficiaryRepository {
  abstract insert(beneficiary: Beneficiary): Promise<void>;
  /** Any organization's (the use case decides what is visible). */
  abstract findById(beneficiaryId: string): Promise<Beneficiary | null>;
  /** Locks the row until the unit of work ends, so two changes take turns. */
  abstract findByIdForUpdate(beneficiaryId: string): Promise<Beneficiary | null>;
  abstract save(beneficiary: Beneficiary): Promise<void>;
  /** The organization's beneficiaries matching the filters, newest first, strictly after `after`. */
  abstract list(organizationId: string, filters: BeneficiaryFilters, after: CursorPosition | null, limit: number): Promise<Beneficiary[]>;
  /** The earliest other beneficiary of the same account and type with the same destination (`Beneficiary.destinationKey`). */
  abstract earliestWithSameDestination(beneficiary: Beneficiary): Promise<string | null>;
}
