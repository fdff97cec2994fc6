import { e164PhoneNumber, isCountryCode, isEmailAddress } from '@pfs/codecs';
import { ENTITY_TYPES, type EntityType } from '@pfs/contracts';
import { InvalidBeneficiaryFieldError } from './beneficiary-errors';

/**
 * Field rules shared by bank and crypto beneficiaries (identity, contact, tags, metadata).
 * Every refusal is `invalid_request` naming the field by its wire name (api-decisions §7).
 */

/** Free text fields: the spec gives no length, 255 keeps rows and rail messages sane. */
export const MAX_TEXT_LENGTH = 255;
/** Spec 8. */
export const MAX_TAGS = 20;
export const MAX_TAG_LENGTH = 100;
export const MAX_METADATA_KEYS = 50;
export const MAX_METADATA_BYTES = 4096;

export { ENTITY_TYPES, type EntityType };

export function invalid(field: string, problem: string): InvalidBeneficiaryFieldError {
  return new InvalidBeneficiaryFieldError(field, problem);
}

/** A required text: present, a string, not blank once trimmed. */
export function requiredText(field: string, value: unknown, maxLength = MAX_TEXT_LENGTH): string {
  if (value === undefined || value === null) throw invalid(field, 'is required');
  return optionalText(field, value, maxLength) as string;
}

/**
 * An optional text: absent or null is null. A blank string is refused rather than read as
 * null, so "clear it" is always said the one way the contract gives (null).
 */
export function optionalText(field: string, value: unknown, maxLength = MAX_TEXT_LENGTH): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalid(field, 'must be a string');
  const text = value.trim();
  if (!text) throw invalid(field, 'must not be blank (null clears it)');
  if ([...text].length > maxLength) throw invalid(field, `must be at most ${maxLength} characters`);
  return text;
}

export function oneOf<T extends string>(field: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw invalid(field, `must be one of ${allowed.join(', ')}`);
  return value as T;
}

/** ISO 3166-1 alpha-2, upper-cased: `de` is read as `DE`. */
export function countryCode(field: string, value: unknown): string | null {
  const text = optionalText(field, value, 2);
  if (text === null) return null;
  const code = text.toUpperCase();
  if (!isCountryCode(code)) throw invalid(field, `${JSON.stringify(text)} is not an ISO 3166-1 alpha-2 country code`);
  return code;
}

export function emailAddress(field: string, value: unknown): string | null {
  const text = optionalText(field, value, 254);
  if (text === null) return null;
  if (!isEmailAddress(text)) throw invalid(field, 'is not a well-formed email address');
  return text;
}

/** Normalized to E.164 (national numbers read in the beneficiary's country). */
export function phoneNumber(field: string, value: unknown, country: string | null): string | null {
  const text = optionalText(field, value, 32);
  if (text === null) return null;
  const number = e164PhoneNumber(text, country);
  if (number === null) throw invalid(field, 'is not a valid phone number (use the international format, e.g. +14155552671)');
  return number;
}

/** `YYYY-MM-DD`, a day that exists, strictly before today (UTC) and not before 1900. */
export function dateOfBirth(field: string, value: unknown, now: Date): string | null {
  const text = optionalText(field, value, 10);
  if (text === null) return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) throw invalid(field, 'must be a date in the form YYYY-MM-DD');
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 2023-02-30 over to March: a round trip catches days that do not exist.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) throw invalid(field, `${text} is not a real date`);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (date.getTime() >= today) throw invalid(field, 'must be in the past');
  if (year < 1900) throw invalid(field, 'must be 1900 or later');
  return text;
}

/** Spec 8: at most 20 tags of at most 100 characters each. Null or absent is none. */
export function tagList(field: string, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalid(field, 'must be an array of strings');
  if (value.length > MAX_TAGS) throw invalid(field, `at most ${MAX_TAGS} tags`);
  return value.map((tag, index) => requiredText(`${field}[${index}]`, tag, MAX_TAG_LENGTH));
}

/** Spec 8: a flat object of string values, at most 50 keys and 4 KB as JSON (UTF-8 bytes). */
export function metadataMap(field: string, value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid(field, 'must be an object of string values');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_METADATA_KEYS) throw invalid(field, `at most ${MAX_METADATA_KEYS} keys`);
  for (const [key, entry] of entries) {
    if (!key.trim()) throw invalid(field, 'keys must not be blank');
    if (typeof entry !== 'string') throw invalid(`${field}.${key}`, 'must be a string');
  }
  const metadata = Object.fromEntries(entries) as Record<string, string>;
  if (new TextEncoder().encode(JSON.stringify(metadata)).length > MAX_METADATA_BYTES) throw invalid(field, `must be at most ${MAX_METADATA_BYTES} bytes serialized`);
  return metadata;
}

/** Identity and contact fields of spec 2.5 / 4.4 (wire names of api-decisions §7). Tax ids stay in full: sealing is the adapter's job. */
export interface BeneficiaryIdentity {
  entityType: EntityType | null;
  email: string | null;
  phoneNumber: string | null;
  firstName: string | null;
  lastName: string | null;
  legalName: string | null;
  dateOfBirth: string | null;
  businessName: string | null;
  registrationNumber: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  region: string | null;
  zipCode: string | null;
  country: string | null;
  taxId: string | null;
  taxIdType: string | null;
}

export type IdentityField = keyof BeneficiaryIdentity;

export const IDENTITY_FIELDS: readonly IdentityField[] = [
  'entityType', 'email', 'phoneNumber', 'firstName', 'lastName', 'legalName', 'dateOfBirth', 'businessName',
  'registrationNumber', 'addressLine1', 'addressLine2', 'city', 'region', 'zipCode', 'country', 'taxId', 'taxIdType',
];

/** What a caller sends: every identity field optional, null meaning none. */
export type IdentityInput = { [K in IdentityField]?: unknown };

/**
 * The identity, validated as a whole: the entity type implies its names (individuals: first
 * and last name; businesses: business name), checked on the result so PATCH cannot leave an
 * individual without a last name.
 */
export function identity(input: IdentityInput, now: Date): BeneficiaryIdentity {
  const entityType = optionalText('entityType', input.entityType);
  const country = countryCode('country', input.country);
  const taxIdType = optionalText('taxIdType', input.taxIdType, 20)?.toUpperCase() ?? null;
  if (taxIdType !== null && !/^[A-Z0-9_]+$/.test(taxIdType)) throw invalid('taxIdType', 'must be a code such as SSN or TIN');
  const result: BeneficiaryIdentity = {
    entityType: entityType === null ? null : oneOf('entityType', entityType, ENTITY_TYPES),
    email: emailAddress('email', input.email),
    phoneNumber: phoneNumber('phoneNumber', input.phoneNumber, country),
    firstName: optionalText('firstName', input.firstName),
    lastName: optionalText('lastName', input.lastName),
    legalName: optionalText('legalName', input.legalName),
    dateOfBirth: dateOfBirth('dateOfBirth', input.dateOfBirth, now),
    businessName: optionalText('businessName', input.businessName),
    registrationNumber: optionalText('registrationNumber', input.registrationNumber, 64),
    addressLine1: optionalText('addressLine1', input.addressLine1),
    addressLine2: optionalText('addressLine2', input.addressLine2),
    city: optionalText('city', input.city),
    region: optionalText('region', input.region),
    zipCode: optionalText('zipCode', input.zipCode, 20),
    country,
    taxId: optionalText('taxId', input.taxId, 64),
    taxIdType,
  };
  if (result.entityType === 'INDIVIDUAL') {
    if (result.firstName === null) throw invalid('firstName', 'is required for an INDIVIDUAL');
    if (result.lastName === null) throw invalid('lastName', 'is required for an INDIVIDUAL');
  }
  if (result.entityType === 'BUSINESS' && result.businessName === null) throw invalid('businessName', 'is required for a BUSINESS');
  return result;
}

/** Unknown fields are refused, not ignored: a misspelt `ibna` must not silently drop the IBAN. */
export function refuseUnknownFields(input: object, known: readonly string[]): void {
  const unknown = Object.keys(input).find((key) => !known.includes(key));
  if (unknown !== undefined) throw invalid(unknown, 'is not a field of this request');
}

/** What every create request carries besides its bank or crypto details. */
export interface CommonInput extends IdentityInput {
  accountId?: unknown;
  nickname?: unknown;
  tags?: unknown;
  metadata?: unknown;
}

export interface BeneficiaryCommon {
  accountId: string;
  nickname: string;
  identity: BeneficiaryIdentity;
  tags: string[];
  metadata: Record<string, string>;
}

export const COMMON_FIELDS: readonly string[] = ['accountId', 'nickname', ...IDENTITY_FIELDS, 'tags', 'metadata'];

/** The shared part of a create request; `detailFields` are the kind's own fields, checked by the caller. */
export function beneficiaryCommon(input: CommonInput, detailFields: readonly string[], now: Date): BeneficiaryCommon {
  refuseUnknownFields(input, [...COMMON_FIELDS, ...detailFields]);
  return {
    accountId: requiredText('accountId', input.accountId, 64),
    nickname: requiredText('nickname', input.nickname),
    identity: identity(input, now),
    tags: tagList('tags', input.tags),
    metadata: metadataMap('metadata', input.metadata),
  };
}
