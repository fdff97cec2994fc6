import type { BankDetails } from './account';

/** Random bytes come from outside the domain (a port), so tests can pin them. */
export type RandomBytes = (length: number) => Uint8Array;

/** Uniform decimal digits from random bytes: bytes of 250 and above are redrawn, so no digit is favoured. */
export function randomDigits(random: RandomBytes, count: number): string {
  let digits = '';
  while (digits.length < count) {
    for (const byte of random(count - digits.length)) {
      if (byte < 250 && digits.length < count) digits += String(byte % 10);
    }
  }
  return digits;
}

/** ABA routing number check digit: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function abaCheckDigit(firstEight: string): string {
  if (!/^\d{8}$/.test(firstEight)) throw new RangeError('an ABA routing number has 8 digits before its check digit');
  const weights = [3, 7, 1, 3, 7, 1, 3, 7];
  const sum = weights.reduce((total, weight, index) => total + weight * Number(firstEight[index]), 0);
  return String((10 - (sum % 10)) % 10);
}

/** ISO 7064 MOD 97-10 of an IBAN-style string (letters count as 10–35). */
export function ibanMod97(text: string): number {
  const numeric = [...text.toUpperCase()].map((char) => (/[A-Z]/.test(char) ? String(char.charCodeAt(0) - 55) : char)).join('');
  let remainder = 0;
  for (const digit of numeric) remainder = (remainder * 10 + Number(digit)) % 97;
  return remainder;
}

/** An IBAN with correct check digits for the country and BBAN (ISO 13616). */
export function ibanFor(country: string, bban: string): string {
  const check = 98 - ibanMod97(`${bban}${country}00`);
  return `${country}${String(check).padStart(2, '0')}${bban}`;
}

/**
 * The sandbox receiving banks. The routing number is 110000000, the one payment sandboxes use for
 * test bank accounts (valid ABA checksum, no real bank behind it), so sandbox details can never
 * send a real transfer to a real bank.
 */
export const SANDBOX_US_BANK = { bankName: 'PFS Sandbox Bank, N.A.', routingNumber: `11000000${abaCheckDigit('11000000')}` } as const;
export const SANDBOX_DE_BANK = { bankName: 'PFS Sandbox Bank Europe', bankCode: '10090044', swiftCode: 'PFSBDEB1XXX' } as const;

/** USD: a US domestic virtual account (routing number + 12-digit account number). */
export function usdBankDetails(random: RandomBytes, reference: string): BankDetails {
  return {
    bankName: SANDBOX_US_BANK.bankName,
    accountNumber: randomDigits(random, 12),
    routingNumber: SANDBOX_US_BANK.routingNumber,
    iban: null,
    swiftCode: null,
    reference,
  };
}

/** EUR: a German IBAN (DE, check digits, 8-digit bank code, 10-digit account number) and BIC. */
export function eurBankDetails(random: RandomBytes, reference: string): BankDetails {
  const accountNumber = randomDigits(random, 10);
  return {
    bankName: SANDBOX_DE_BANK.bankName,
    accountNumber,
    routingNumber: null,
    iban: ibanFor('DE', `${SANDBOX_DE_BANK.bankCode}${accountNumber}`),
    swiftCode: SANDBOX_DE_BANK.swiftCode,
    reference,
  };
}
