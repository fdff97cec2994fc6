import { composeIBAN, electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';

/**
 * Bank identifiers: IBAN (ISO 13616 check digits and per-country formats) and BIC from
 * ibantools; the ABA routing check digit is one line of arithmetic no library is needed for.
 */

/** An IBAN with correct check digits for the country and BBAN, in electronic format. */
export function ibanFor(countryCode: string, bban: string): string {
  const iban = composeIBAN({ countryCode, bban });
  if (!iban) throw new RangeError(`no valid IBAN for ${countryCode} with that BBAN`);
  return iban;
}

/** Whether the text is a valid IBAN (spaces allowed, as printed on paper). */
export function isValidIban(text: string): boolean {
  const electronic = electronicFormatIBAN(text);
  return electronic !== null && isValidIBAN(electronic);
}

/** Whether the text is a well-formed SWIFT/BIC code (8 or 11 characters, a valid country). */
export function isValidBic(text: string): boolean {
  return isValidBIC(text);
}

/**
 * ABA routing number check digit: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10).
 * Hand code on purpose: the npm validators for it are little used, pre-1.0 or rarely released,
 * and only validate, while the sandbox also needs the digit to make its routing number.
 */
export function abaCheckDigit(firstEight: string): string {
  if (!/^\d{8}$/.test(firstEight)) throw new RangeError('an ABA routing number has 8 digits before its check digit');
  const weights = [3, 7, 1, 3, 7, 1, 3, 7];
  const sum = weights.reduce((total, weight, index) => total + weight * Number(firstEight[index]), 0);
  return String((10 - (sum % 10)) % 10);
}

export function isValidAbaRoutingNumber(text: string): boolean {
  return /^\d{9}$/.test(text) && abaCheckDigit(text.slice(0, 8)) === text[8];
}
