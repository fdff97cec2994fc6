import { getAlpha2Codes } from 'i18n-iso-countries';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { z } from 'zod';

const ALPHA2 = new Set(Object.keys(getAlpha2Codes()));

/** Whether `code` is an ISO 3166-1 alpha-2 country code (upper case), from i18n-iso-countries' list. */
export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && ALPHA2.has(code);
}

const EMAIL = z.email();

/** Whether `text` is a well-formed email address (zod's rule). */
export function isEmailAddress(text: string): boolean {
  return EMAIL.safeParse(text).success;
}

/**
 * The number in E.164, or null when it is not a valid number. The full metadata (`/max`) checks
 * it against each country's numbering plan, not only its length; a national number is read in
 * `country`.
 */
export function e164PhoneNumber(text: string, country: string | null = null): string | null {
  const parsed = parsePhoneNumberFromString(text, (country ?? undefined) as CountryCode | undefined);
  return parsed?.isValid() ? parsed.number : null;
}
