import { DomainError, SANDBOX_CHAIN_CATALOG, type ChainName, type PayableBeneficiaryView } from '@pfs/contracts';
import { BeneficiaryDirectory } from '../../../src/application/ports/beneficiary-directory';

/** The account a beneficiary is registered on, and its organization. */
export interface BeneficiaryOwner {
  organizationId: string;
  accountId: string;
}

/** The beneficiary service's answers, as the test sets them: another organization's is `beneficiary_not_found`, as there. */
export class InMemoryBeneficiaryDirectory extends BeneficiaryDirectory {
  private readonly beneficiaries = new Map<string, PayableBeneficiaryView>();
  private counter = 0;

  /** An ACTIVE CRYPTO beneficiary of the account on `chainName` (a plain EVM address unless told). */
  crypto(owner: BeneficiaryOwner, setup: { chainName?: ChainName; address?: string; asset?: string | null; status?: PayableBeneficiaryView['status'] } = {}): string {
    const chainName = setup.chainName ?? 'ETHEREUM_SEPOLIA';
    const chain = SANDBOX_CHAIN_CATALOG[chainName];
    return this.add(owner, {
      type: 'CRYPTO',
      status: setup.status ?? 'ACTIVE',
      bank: null,
      crypto: { chainName, chainDisplayName: chain.chainDisplayName, platform: chain.platform, address: setup.address ?? '0x52908400098527886E0F7030069857D2E4169EE7', asset: setup.asset ?? null },
    });
  }

  /** An ACTIVE BANK beneficiary of the account paid in `currency`. */
  bank(owner: BeneficiaryOwner, setup: { currency?: string; status?: PayableBeneficiaryView['status'] } = {}): string {
    return this.add(owner, {
      type: 'BANK',
      status: setup.status ?? 'ACTIVE',
      crypto: null,
      bank: {
        bankName: 'Sandbox Bank',
        method: 'SWIFT',
        currency: setup.currency ?? 'USD',
        swiftCode: 'DEUTDEFF',
        bankCountry: 'DE',
        iban: 'DE89370400440532013000',
        routingNumber: null,
        accountNumber: 'DE89370400440532013000',
        accountNumberLast4: '3000',
        bankAddressLine1: null,
        bankCity: null,
        bankRegion: null,
        bankZipCode: null,
        intermediaryBankName: null,
        intermediarySwiftCode: null,
        intermediaryBankAddress: null,
      },
    });
  }

  /** An ACTIVE SERVICENET beneficiary of the account, paying `receiver`'s primary account. */
  servicenet(owner: BeneficiaryOwner, receiver: { organizationId: string; handle?: string }): string {
    return this.add(owner, {
      type: 'SERVICENET',
      status: 'ACTIVE',
      bank: null,
      crypto: null,
      servicenet: { organizationId: receiver.organizationId, handle: receiver.handle ?? `handle-${this.counter + 1}`, organizationName: 'Receiver Ltd' },
    });
  }

  setStatus(beneficiaryId: string, status: PayableBeneficiaryView['status']): void {
    this.update(beneficiaryId, (beneficiary) => ({ ...beneficiary, status, payable: status === 'ACTIVE' }));
  }

  /** What a PATCH in the beneficiary service does: the next answer is the changed beneficiary. */
  update(beneficiaryId: string, change: (beneficiary: PayableBeneficiaryView) => PayableBeneficiaryView): void {
    const beneficiary = this.beneficiaries.get(beneficiaryId);
    if (!beneficiary) throw new Error(`no beneficiary ${beneficiaryId}`);
    this.beneficiaries.set(beneficiaryId, change(beneficiary));
  }

  async payable(organizationId: string, beneficiaryId: string): Promise<PayableBeneficiaryView> {
    const beneficiary = this.beneficiaries.get(beneficiaryId);
    if (beneficiary?.organizationId !== organizationId) throw new DomainError('beneficiary_not_found', `No beneficiary ${beneficiaryId} was found.`);
    return beneficiary;
  }

  private add(owner: BeneficiaryOwner, details: Pick<PayableBeneficiaryView, 'type' | 'status' | 'bank' | 'crypto'> & Partial<Pick<PayableBeneficiaryView, 'servicenet'>>): string {
    this.counter += 1;
    const beneficiaryId = `bene_${this.counter.toString(16).padStart(32, '0')}`;
    this.beneficiaries.set(beneficiaryId, {
      beneficiaryId,
      organizationId: owner.organizationId,
      accountId: owner.accountId,
      nickname: `Beneficiary ${this.counter}`,
      entityType: 'INDIVIDUAL',
      name: 'Ada Lovelace',
      country: 'DE',
      payable: details.status === 'ACTIVE',
      servicenet: null,
      ...details,
    });
    return beneficiaryId;
  }
}
