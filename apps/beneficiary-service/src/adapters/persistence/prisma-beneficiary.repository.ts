import { Inject, Injectable } from '@nestjs/common';
import type { CursorPosition } from '@pfs/contracts';
import { newestFirstPage, PrismaTransactionHost, type Prisma } from '@pfs/persistence';
import type { SecretBox } from '@pfs/platform';
import { BeneficiaryRepository, type BeneficiaryFilters } from '../../application/ports/beneficiary.repository';
import type { BankDetails, BankMethod } from '../../domain/bank-details';
import { Beneficiary, type BeneficiaryStatus, type BeneficiaryType } from '../../domain/beneficiary';
import type { EntityType } from '../../domain/beneficiary-fields';
import type { CryptoDetails } from '../../domain/crypto-details';

/** The box account numbers, IBANs and tax ids are sealed with at rest (BENEFICIARY_DATA_KEY). */
export const BENEFICIARY_DATA_BOX = Symbol('BENEFICIARY_DATA_BOX');

type BeneficiaryRow = Prisma.BeneficiaryGetPayload<object>;

/**
 * Beneficiaries in `beneficiary.beneficiaries`. What identifies a bank account (its number, the
 * IBAN that embeds it) and the tax id are sealed (AES-256-GCM) on the way in and opened on the
 * way out; duplicates are found by a keyed fingerprint of the destination, never by plain text.
 */
@Injectable()
export class PrismaBeneficiaryRepository extends BeneficiaryRepository {
  constructor(
    private readonly host: PrismaTransactionHost,
    @Inject(BENEFICIARY_DATA_BOX) private readonly box: SecretBox,
  ) {
    super();
  }

  async insert(beneficiary: Beneficiary): Promise<void> {
    const b = beneficiary.props;
    await this.host.client.beneficiary.create({ data: { id: b.id, organizationId: b.organizationId, type: b.type, createdAt: b.createdAt, ...this.columns(beneficiary) } });
  }

  async findById(beneficiaryId: string): Promise<Beneficiary | null> {
    const row = await this.host.client.beneficiary.findUnique({ where: { id: beneficiaryId } });
    return row ? this.toBeneficiary(row) : null;
  }

  async findByIdForUpdate(beneficiaryId: string): Promise<Beneficiary | null> {
    const locked = await this.host.client.$queryRaw<Array<{ id: string }>>`SELECT id FROM "beneficiary"."beneficiaries" WHERE id = ${beneficiaryId} FOR UPDATE`;
    return locked.length ? this.findById(beneficiaryId) : null;
  }

  async save(beneficiary: Beneficiary): Promise<void> {
    await this.host.client.beneficiary.update({ where: { id: beneficiary.id }, data: this.columns(beneficiary) });
  }

  async list(organizationId: string, filters: BeneficiaryFilters, after: CursorPosition | null, limit: number): Promise<Beneficiary[]> {
    const page = newestFirstPage(after, limit);
    const rows = await this.host.client.beneficiary.findMany({
      where: { AND: [{ organizationId, accountId: filters.accountId, type: filters.type, status: filters.status }, page.where] },
      orderBy: page.orderBy,
      take: page.take,
    });
    return rows.map((row) => this.toBeneficiary(row));
  }

  async earliestWithSameDestination(beneficiary: Beneficiary): Promise<string | null> {
    const b = beneficiary.props;
    const earlier = await this.host.client.beneficiary.findFirst({
      where: { accountId: b.accountId, type: b.type, destinationFingerprint: this.fingerprint(beneficiary), id: { not: b.id } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { id: true },
    });
    return earlier?.id ?? null;
  }

  private fingerprint(beneficiary: Beneficiary): string {
    return this.box.fingerprint(beneficiary.destinationKey());
  }

  private seal(value: string | null): string | null {
    return value === null ? null : this.box.seal(value);
  }

  private open(value: string | null): string | null {
    return value === null ? null : this.box.open(value);
  }

  /** Every column a change may touch (id, owner, type and creation never change). */
  private columns(beneficiary: Beneficiary) {
    const b = beneficiary.props;
    const { taxId, ...identity } = b.identity;
    return {
      accountId: b.accountId,
      status: b.status,
      nickname: b.nickname,
      ...identity,
      taxIdSealed: this.seal(taxId),
      tags: [...b.tags],
      metadata: { ...b.metadata },
      bankName: b.bank?.bankName ?? null,
      bankMethod: b.bank?.method ?? null,
      bankCurrency: b.bank?.currency ?? null,
      swiftCode: b.bank?.swiftCode ?? null,
      accountNumberSealed: this.seal(b.bank?.accountNumber ?? null),
      accountNumberLast4: beneficiary.accountNumberLast4,
      bankCountry: b.bank?.bankCountry ?? null,
      ibanSealed: this.seal(b.bank?.iban ?? null),
      routingNumber: b.bank?.routingNumber ?? null,
      bankAddressLine1: b.bank?.bankAddressLine1 ?? null,
      bankCity: b.bank?.bankCity ?? null,
      bankRegion: b.bank?.bankRegion ?? null,
      bankZipCode: b.bank?.bankZipCode ?? null,
      intermediaryBankName: b.bank?.intermediaryBankName ?? null,
      intermediarySwiftCode: b.bank?.intermediarySwiftCode ?? null,
      intermediaryBankAddress: b.bank?.intermediaryBankAddress ?? null,
      chainName: b.crypto?.chainName ?? null,
      chainDisplayName: b.crypto?.chainDisplayName ?? null,
      platform: b.crypto?.platform ?? null,
      address: b.crypto?.address ?? null,
      asset: b.crypto?.asset ?? null,
      servicenetOrganizationId: b.servicenet?.organizationId ?? null,
      servicenetHandle: b.servicenet?.handle ?? null,
      servicenetOrganizationName: b.servicenet?.organizationName ?? null,
      destinationFingerprint: this.fingerprint(beneficiary),
      duplicateOf: b.duplicateOf,
      updatedAt: b.updatedAt,
    };
  }

  private toBank(row: BeneficiaryRow): BankDetails | null {
    if (row.type !== 'BANK') return null;
    return {
      bankName: row.bankName as string,
      method: row.bankMethod as BankMethod,
      currency: row.bankCurrency as string,
      swiftCode: row.swiftCode as string,
      accountNumber: this.open(row.accountNumberSealed) as string,
      bankCountry: row.bankCountry as string,
      iban: this.open(row.ibanSealed),
      routingNumber: row.routingNumber,
      bankAddressLine1: row.bankAddressLine1,
      bankCity: row.bankCity,
      bankRegion: row.bankRegion,
      bankZipCode: row.bankZipCode,
      intermediaryBankName: row.intermediaryBankName,
      intermediarySwiftCode: row.intermediarySwiftCode,
      intermediaryBankAddress: row.intermediaryBankAddress,
    };
  }

  private toCrypto(row: BeneficiaryRow): CryptoDetails | null {
    if (row.type !== 'CRYPTO') return null;
    return {
      chainName: row.chainName as string,
      chainDisplayName: row.chainDisplayName as string,
      platform: row.platform as CryptoDetails['platform'],
      address: row.address as string,
      asset: row.asset,
    };
  }

  private toBeneficiary(row: BeneficiaryRow): Beneficiary {
    return Beneficiary.restore({
      id: row.id,
      organizationId: row.organizationId,
      accountId: row.accountId,
      type: row.type as BeneficiaryType,
      nickname: row.nickname,
      status: row.status as BeneficiaryStatus,
      identity: {
        entityType: row.entityType as EntityType | null,
        email: row.email,
        phoneNumber: row.phoneNumber,
        firstName: row.firstName,
        lastName: row.lastName,
        legalName: row.legalName,
        dateOfBirth: row.dateOfBirth,
        businessName: row.businessName,
        registrationNumber: row.registrationNumber,
        addressLine1: row.addressLine1,
        addressLine2: row.addressLine2,
        city: row.city,
        region: row.region,
        zipCode: row.zipCode,
        country: row.country,
        taxId: this.open(row.taxIdSealed),
        taxIdType: row.taxIdType,
      },
      tags: row.tags,
      metadata: row.metadata as Record<string, string>,
      bank: this.toBank(row),
      crypto: this.toCrypto(row),
      servicenet: row.type === 'SERVICENET' ? { organizationId: row.servicenetOrganizationId as string, handle: row.servicenetHandle as string, organizationName: row.servicenetOrganizationName as string } : null,
      duplicateOf: row.duplicateOf,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    });
  }
}
