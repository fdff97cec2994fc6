import { abaCheckDigit, ibanFor } from '@pfs/codecs';
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
