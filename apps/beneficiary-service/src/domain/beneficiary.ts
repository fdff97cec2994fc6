import type { BeneficiaryStatus } from '@pfs/contracts';
import { accountNumberLast4, bankDestination, bankDetails, BANK_FIELDS, REQUIRED_BANK_FIELDS, validBankBeneficiary, type BankBeneficiaryInput, type BankDetails } from './bank-details';
import {
  BeneficiaryAlreadyArchivedError,
  BeneficiaryBlockedError,
  BeneficiaryNotArchivedError,
  BeneficiaryNotBlockedError,
} from './beneficiary-errors';
import { beneficiaryCommon, identity, IDENTITY_FIELDS, invalid, metadataMap, refuseUnknownFields, requiredText, tagList, type BeneficiaryIdentity } from './beneficiary-fields';
import { cryptoDestination, findChain, validCryptoBeneficiary, walletAddress, type ChainEnvironment, type CryptoBeneficiaryInput, type CryptoDetails } from './crypto-details';

export type BeneficiaryType = 'BANK' | 'CRYPTO' | 'SERVICENET';

/**
 * A SERVICENET beneficiary's receiving organization: its id, kept for the ledger's
 * transfer and never shown, and its handle and name as resolved at creation.
 */
export interface ServicenetDetails {
  organizationId: string;
  handle: string;
  organizationName: string;
}

/** What POST /v1/beneficiaries/servicenet may carry besides the common fields. */
export const SERVICENET_FIELDS: readonly string[] = ['handle'];

export type { BeneficiaryStatus };

export interface BeneficiaryProps {
  id: string;
  organizationId: string;
  accountId: string;
  type: BeneficiaryType;
  nickname: string;
  status: BeneficiaryStatus;
  identity: BeneficiaryIdentity;
  tags: readonly string[];
  metadata: Readonly<Record<string, string>>;
  bank: BankDetails | null;
  crypto: CryptoDetails | null;
  servicenet: ServicenetDetails | null;
  /** The earlier beneficiary of the same account with the same destination, if any (flagged, not refused). */
  duplicateOf: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * PATCH (spec 4.5): undefined leaves a field unchanged, null clears it. `address` is the
 * wallet address (crypto only); bank fields apply to bank beneficiaries only.
 */
export type BeneficiaryChanges = { [field: string]: unknown };

/** Fields null may not clear: they cannot be empty. Optional bank fields stay clearable, the result is re-validated. */
const NOT_CLEARABLE: readonly string[] = ['accountId', 'nickname', 'entityType', 'address', ...REQUIRED_BANK_FIELDS];

export const PATCH_FIELDS: readonly string[] = ['accountId', 'nickname', ...IDENTITY_FIELDS, 'tags', 'metadata', 'address', ...BANK_FIELDS];

/**
 * A payee of an account (spec 2.5). Moves: created ACTIVE; ACTIVE or INACTIVE → ARCHIVED
 * (archive) → ACTIVE (unarchive); ACTIVE or INACTIVE → BLOCKED (sandbox block) → ACTIVE
 * (unblock). A blocked beneficiary is frozen (no PATCH, no archive) so archiving cannot be
 * used to shed a block. Only an ACTIVE beneficiary can be paid.
 */
export class Beneficiary {
  private constructor(readonly props: Readonly<BeneficiaryProps>) {}

  static createBank(input: { id: string; organizationId: string; body: BankBeneficiaryInput; now: Date }): Beneficiary {
    const valid = validBankBeneficiary(input.body, input.now);
    const { bank, ...common } = valid;
    return new Beneficiary({ id: input.id, organizationId: input.organizationId, type: 'BANK', ...common, status: 'ACTIVE', bank, crypto: null, servicenet: null, duplicateOf: null, createdAt: input.now, updatedAt: input.now });
  }

  static createCrypto(input: { id: string; organizationId: string; body: CryptoBeneficiaryInput; environment: ChainEnvironment; now: Date }): Beneficiary {
    const valid = validCryptoBeneficiary(input.body, input.environment, input.now);
    const { crypto, ...common } = valid;
    return new Beneficiary({ id: input.id, organizationId: input.organizationId, type: 'CRYPTO', ...common, status: 'ACTIVE', bank: null, crypto, servicenet: null, duplicateOf: null, createdAt: input.now, updatedAt: input.now });
  }

  /**
   * Another organization of the platform, by its handle (resolved by the application). The body
   * takes the common fields (accountId, nickname, identity, tags, metadata) and the handle.
   */
  static createServicenet(input: { id: string; organizationId: string; body: Record<string, unknown>; receiver: ServicenetDetails; now: Date }): Beneficiary {
    const common = beneficiaryCommon(input.body, SERVICENET_FIELDS, input.now);
    return new Beneficiary({ id: input.id, organizationId: input.organizationId, type: 'SERVICENET', ...common, status: 'ACTIVE', bank: null, crypto: null, servicenet: { ...input.receiver }, duplicateOf: null, createdAt: input.now, updatedAt: input.now });
  }

  static restore(props: BeneficiaryProps): Beneficiary {
    return new Beneficiary(props);
  }

  get id(): string {
    return this.props.id;
  }

  get createdAt(): Date {
    return this.props.createdAt;
  }

  get status(): BeneficiaryStatus {
    return this.props.status;
  }

  /** Another organization's beneficiary answers `beneficiary_not_found`, as if it did not exist. */
  isVisibleTo(organizationId: string): boolean {
    return this.props.organizationId === organizationId;
  }

  /** What payouts may send to. */
  isPayable(): boolean {
    return this.props.status === 'ACTIVE';
  }

  /** The masked view data: the API shows only these last four digits. */
  get accountNumberLast4(): string | null {
    return this.props.bank ? accountNumberLast4(this.props.bank.accountNumber) : null;
  }

  /** Same account, type and destination means a duplicate (flagged with `duplicateOf`). */
  destinationKey(): string {
    const { accountId, type, bank, crypto, servicenet } = this.props;
    const destination = bank ? bankDestination(bank) : servicenet ? `servicenet:${servicenet.organizationId}` : cryptoDestination(crypto as CryptoDetails);
    return `${accountId}|${type}|${destination}`;
  }

  /** Set by the application once it has looked the destination key up among the earlier ones. */
  markDuplicateOf(earlierId: string | null): Beneficiary {
    return new Beneficiary({ ...this.props, duplicateOf: earlierId === this.props.id ? null : earlierId });
  }

  patch(changes: BeneficiaryChanges, environment: ChainEnvironment, now: Date): Beneficiary {
    refuseUnknownFields(changes, PATCH_FIELDS);
    this.refuseIfFrozen();
    const given = (field: string): boolean => changes[field] !== undefined;
    for (const field of NOT_CLEARABLE) {
      if (changes[field] === null) throw invalid(field, 'cannot be cleared');
    }
    // Nothing to change is no change: `updatedAt` keeps telling when something last did.
    if (!Object.keys(changes).some(given)) return this;
    const bankChanged = BANK_FIELDS.some(given);
    if (bankChanged && this.props.type !== 'BANK') throw invalid(BANK_FIELDS.find(given) as string, 'only bank beneficiaries have bank details');
    if (given('address') && this.props.type !== 'CRYPTO') throw invalid('address', 'only crypto beneficiaries have a wallet address');

    // Merge, then validate the whole: rules across fields (entity type and names, method and IBAN) hold on the result.
    const mergedIdentity = Object.fromEntries(IDENTITY_FIELDS.map((field) => [field, changes[field] === undefined ? this.props.identity[field] : changes[field]]));
    const bank = bankChanged && this.props.bank
      ? bankDetails(Object.fromEntries(BANK_FIELDS.map((field) => [field, changes[field] === undefined ? (this.props.bank as BankDetails)[field] : changes[field]])))
      : this.props.bank;
    let crypto = this.props.crypto;
    if (given('address') && crypto) {
      // The chain is found in the current catalog; a chain gone from it keeps its old definition.
      const chain = findChain(environment, crypto.chainName) ?? crypto;
      crypto = { ...crypto, address: walletAddress(chain, changes.address) };
    }
    return new Beneficiary({
      ...this.props,
      accountId: given('accountId') ? requiredText('accountId', changes.accountId, 64) : this.props.accountId,
      nickname: given('nickname') ? requiredText('nickname', changes.nickname) : this.props.nickname,
      identity: identity(mergedIdentity, now),
      tags: changes.tags === undefined ? this.props.tags : tagList('tags', changes.tags),
      metadata: changes.metadata === undefined ? this.props.metadata : metadataMap('metadata', changes.metadata),
      bank,
      crypto,
      updatedAt: now,
    });
  }

  archive(now: Date): Beneficiary {
    this.refuseIfFrozen();
    return this.moveTo('ARCHIVED', now);
  }

  unarchive(now: Date): Beneficiary {
    if (this.props.status !== 'ARCHIVED') throw new BeneficiaryNotArchivedError(this.id, this.props.status);
    return this.moveTo('ACTIVE', now);
  }

  /** Sandbox only (the route decides): lets a partner rehearse a payout to a blocked payee. */
  block(now: Date): Beneficiary {
    this.refuseIfFrozen();
    return this.moveTo('BLOCKED', now);
  }

  unblock(now: Date): Beneficiary {
    if (this.props.status === 'ARCHIVED') throw new BeneficiaryAlreadyArchivedError(this.id);
    if (this.props.status !== 'BLOCKED') throw new BeneficiaryNotBlockedError(this.id, this.props.status);
    return this.moveTo('ACTIVE', now);
  }

  /** ARCHIVED and BLOCKED refuse every change but their own way out. */
  private refuseIfFrozen(): void {
    if (this.props.status === 'ARCHIVED') throw new BeneficiaryAlreadyArchivedError(this.id);
    if (this.props.status === 'BLOCKED') throw new BeneficiaryBlockedError(this.id);
  }

  private moveTo(status: BeneficiaryStatus, now: Date): Beneficiary {
    return new Beneficiary({ ...this.props, status, updatedAt: now });
  }
}
