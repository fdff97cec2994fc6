import type { PayableBeneficiaryView } from '@pfs/contracts';

/** What the ledger needs to know about beneficiaries, which the beneficiary service owns. */
export abstract class BeneficiaryDirectory {
  /**
   * The beneficiary with what a rail needs and its status, as of now; `beneficiary_not_found`
   * for an unknown one and for another organization's alike.
   */
  abstract payable(organizationId: string, beneficiaryId: string): Promise<PayableBeneficiaryView>;
}
