import { z } from 'zod';
import { BENEFICIARY_STATUSES, BENEFICIARY_TYPES, type BeneficiaryView, type PageView, type PayableBeneficiaryView } from '../views';
import { mutation, pageRequestSchema, query } from './command-definition';
import { systemCommands } from './system';

/**
 * Field values as the gateway forwards them. The shapes are checked at the gateway (DTOs) and
 * again here; the rules (IBAN checksum, address on its chain, entity type and names, spec 8
 * limits) are the beneficiary domain's, so a refusal names its field wherever it comes from.
 * In an update, `null` asks to clear a field: the domain refuses that for fields that cannot
 * be empty.
 */
const text = z.string();
const maybe = text.nullable().optional();
const tags = z.array(text).nullable().optional();
const metadata = z.record(z.string(), z.string()).nullable().optional();

/** Identity and contact fields of spec 4.4, by their api-decisions §7 wire names. */
const identityFields = {
  entityType: maybe,
  email: maybe,
  phoneNumber: maybe,
  firstName: maybe,
  lastName: maybe,
  legalName: maybe,
  dateOfBirth: maybe,
  businessName: maybe,
  registrationNumber: maybe,
  addressLine1: maybe,
  addressLine2: maybe,
  city: maybe,
  region: maybe,
  zipCode: maybe,
  country: maybe,
  taxId: maybe,
  taxIdType: maybe,
  tags,
  metadata,
};

/** Optional bank fields (api-decisions §7). */
const optionalBankFields = {
  iban: maybe,
  routingNumber: maybe,
  bankAddressLine1: maybe,
  bankCity: maybe,
  bankRegion: maybe,
  bankZipCode: maybe,
  intermediaryBankName: maybe,
  intermediarySwiftCode: maybe,
  intermediaryBankAddress: maybe,
};

const owned = z.object({ organizationId: z.string(), beneficiaryId: z.string() });

export const createBankBeneficiaryPayload = z.object({
  organizationId: z.string(),
  accountId: text,
  nickname: text,
  bankName: text,
  method: text,
  currency: text,
  swiftCode: text,
  accountNumber: text,
  bankCountry: text,
  ...optionalBankFields,
  ...identityFields,
});

export const createCryptoBeneficiaryPayload = z.object({
  organizationId: z.string(),
  accountId: text,
  nickname: text,
  chainName: text,
  address: text,
  asset: maybe,
  ...identityFields,
});

/** Spec 4.5: every field optional; `address` is the wallet address (crypto beneficiaries only). */
export const updateBeneficiaryPayload = owned.extend({
  changes: z
    .object({
      accountId: maybe,
      nickname: maybe,
      address: maybe,
      bankName: maybe,
      method: maybe,
      currency: maybe,
      swiftCode: maybe,
      accountNumber: maybe,
      bankCountry: maybe,
      ...optionalBankFields,
      ...identityFields,
    })
    .strict(),
});

/**
 * The beneficiary service's queue (spec 2.5, 4.4, 4.5; api-decisions §7). Each command's use case
 * is `apps/beneficiary-service/src/application/use-cases/<verb>-<resource>/`. Another
 * organization's beneficiary answers `beneficiary_not_found` everywhere, as if it did not exist.
 */
export const beneficiaryCommands = {
  ...systemCommands,
  /** POST /v1/beneficiaries/bank; the account must be one of the organization's (`account_not_found`). */
  'bank-beneficiaries.create': mutation(createBankBeneficiaryPayload).returns<BeneficiaryView>(),
  /** POST /v1/beneficiaries/crypto; the address is checked against the chain's format. */
  'crypto-beneficiaries.create': mutation(createCryptoBeneficiaryPayload).returns<BeneficiaryView>(),
  /**
   * POST /v1/beneficiaries/servicenet: a payee that is another organization, by its
   * servicenet handle. The caller must be on servicenet (`servicenet_not_enabled`); an unknown
   * handle, or one whose organization is off servicenet, is `servicenet_handle_not_found`; the
   * caller's own handle is `invalid_request`.
   */
  'servicenet-beneficiaries.create': mutation(
    z.object({ organizationId: z.string(), accountId: text, nickname: text, handle: text, tags, metadata }),
  ).returns<BeneficiaryView>(),
  /** GET /v1/beneficiaries: newest first. */
  'beneficiaries.list': query(
    z.object({
      organizationId: z.string(),
      page: pageRequestSchema,
      filters: z.object({ accountId: z.string().optional(), type: z.enum(BENEFICIARY_TYPES).optional(), status: z.enum(BENEFICIARY_STATUSES).optional() }),
    }),
  ).returns<PageView<BeneficiaryView>>(),
  'beneficiaries.get': query(owned).returns<BeneficiaryView>(),
  'beneficiaries.update': mutation(updateBeneficiaryPayload).returns<BeneficiaryView>(),
  'beneficiaries.archive': mutation(owned).returns<BeneficiaryView>(),
  'beneficiaries.unarchive': mutation(owned).returns<BeneficiaryView>(),
  /** Sandbox only (the gateway refuses it in production): lets a partner rehearse a blocked payee. */
  'beneficiaries.block': mutation(owned).returns<BeneficiaryView>(),
  'beneficiaries.unblock': mutation(owned).returns<BeneficiaryView>(),
  /**
   * For payouts: the beneficiary with the details a rail needs (the full account number
   * included), and whether it may be paid now. `beneficiary_not_found` as everywhere else.
   */
  'payable-beneficiaries.get': query(owned).returns<PayableBeneficiaryView>(),
} as const;
