import { isValidAbaRoutingNumber, isValidBic, isValidIban } from '@pfs/codecs';
import { BANK_METHODS, findAsset, type BankMethod } from '@pfs/contracts';
import { beneficiaryCommon, countryCode, invalid, oneOf, optionalText, requiredText, type BeneficiaryCommon, type CommonInput } from './beneficiary-fields';

/**
 * Bank details of a bank beneficiary (spec 4.4, wire names of api-decisions §7). The full
 * account number is kept here; only `accountNumberLast4` ever leaves the service.
 */

/** Transfer methods and what each needs (see `checkMethod`). */
export { BANK_METHODS, type BankMethod };

export interface BankDetails {
  bankName: string;
  method: BankMethod;
  currency: string;
  swiftCode: string;
  accountNumber: string;
  bankCountry: string;
  iban: string | null;
  routingNumber: string | null;
  bankAddressLine1: string | null;
  bankCity: string | null;
  bankRegion: string | null;
  bankZipCode: string | null;
  intermediaryBankName: string | null;
  intermediarySwiftCode: string | null;
  intermediaryBankAddress: string | null;
}

export type BankField = keyof BankDetails;

/** With accountId and nickname, the eight fields spec 4.4 names on the wire: required, never cleared by PATCH. */
export const REQUIRED_BANK_FIELDS = ['bankName', 'method', 'currency', 'swiftCode', 'accountNumber', 'bankCountry'] as const satisfies readonly BankField[];

export const BANK_FIELDS: readonly BankField[] = [
  ...REQUIRED_BANK_FIELDS,
  'iban', 'routingNumber', 'bankAddressLine1', 'bankCity', 'bankRegion', 'bankZipCode',
  'intermediaryBankName', 'intermediarySwiftCode', 'intermediaryBankAddress',
];

export type BankDetailsInput = { [K in BankField]?: unknown };

/** What the API answers as `bank` (api-decisions §7): no account number, only its last four. */
export type BankDetailsView = Omit<BankDetails, 'accountNumber'> & { accountNumberLast4: string };

/** Spaces and dashes are how people print identifiers; they carry no meaning. */
function compact(text: string): string {
  return text.replace(/[\s-]+/g, '').toUpperCase();
}

function bic(field: string, value: unknown, required: boolean): string | null {
  const text = required ? requiredText(field, value, 20) : optionalText(field, value, 20);
  if (text === null) return null;
  const code = compact(text);
  if (!isValidBic(code)) throw invalid(field, `${JSON.stringify(text)} is not a valid SWIFT/BIC code`);
  return code;
}

/** Validated and normalized bank details; every violation names its field. */
export function bankDetails(input: BankDetailsInput): BankDetails {
  const method = oneOf('method', requiredText('method', input.method).toUpperCase(), BANK_METHODS);
  const currencyCode = requiredText('currency', input.currency, 10).toUpperCase();
  if (findAsset(currencyCode)?.type !== 'FIAT') throw invalid('currency', `${currencyCode} is not a FIAT asset of the catalog`);
  const bankCountry = countryCode('bankCountry', requiredText('bankCountry', input.bankCountry)) as string;

  const accountNumber = compact(requiredText('accountNumber', input.accountNumber, 40));
  if (!/^[A-Z0-9]{4,34}$/.test(accountNumber)) throw invalid('accountNumber', 'must be 4 to 34 letters or digits');

  const ibanText = optionalText('iban', input.iban, 42);
  const iban = ibanText === null ? null : compact(ibanText);
  if (iban !== null) {
    if (!isValidIban(iban)) throw invalid('iban', 'is not a valid IBAN (check digits or country format)');
    if (iban.slice(0, 2) !== bankCountry) throw invalid('iban', `is a ${iban.slice(0, 2)} IBAN but bankCountry is ${bankCountry}`);
  }

  const routingText = optionalText('routingNumber', input.routingNumber, 11);
  const routingNumber = routingText === null ? null : compact(routingText);
  if (routingNumber !== null) {
    if (!isValidAbaRoutingNumber(routingNumber)) throw invalid('routingNumber', 'is not a valid ABA routing number (9 digits, check digit)');
    if (bankCountry !== 'US') throw invalid('routingNumber', `is a US ABA routing number but bankCountry is ${bankCountry}`);
  }

  const details: BankDetails = {
    bankName: requiredText('bankName', input.bankName),
    method,
    currency: currencyCode,
    swiftCode: bic('swiftCode', input.swiftCode, true) as string,
    accountNumber,
    bankCountry,
    iban,
    routingNumber,
    bankAddressLine1: optionalText('bankAddressLine1', input.bankAddressLine1),
    bankCity: optionalText('bankCity', input.bankCity),
    bankRegion: optionalText('bankRegion', input.bankRegion),
    bankZipCode: optionalText('bankZipCode', input.bankZipCode, 20),
    intermediaryBankName: optionalText('intermediaryBankName', input.intermediaryBankName),
    intermediarySwiftCode: bic('intermediarySwiftCode', input.intermediarySwiftCode, false),
    intermediaryBankAddress: optionalText('intermediaryBankAddress', input.intermediaryBankAddress),
  };
  checkMethod(details);
  return details;
}

/**
 * The method must be one the details can actually be paid by: SEPA pays EUR to an IBAN; ACH
 * pays USD to a US account by routing number; Faster Payments pays GBP inside the UK (not a
 * catalog currency yet, so refused today); WIRE and SWIFT pay any catalog currency by BIC.
 */
function checkMethod(details: BankDetails): void {
  switch (details.method) {
    case 'SEPA':
      if (details.currency !== 'EUR') throw invalid('currency', 'SEPA pays EUR only');
      if (details.iban === null) throw invalid('iban', 'is required for SEPA');
      return;
    case 'ACH':
      if (details.currency !== 'USD') throw invalid('currency', 'ACH pays USD only');
      if (details.routingNumber === null) throw invalid('routingNumber', 'is required for ACH');
      if (!/^\d{4,17}$/.test(details.accountNumber)) throw invalid('accountNumber', 'an ACH account number is 4 to 17 digits');
      return;
    case 'FASTER_PAYMENTS':
      if (details.currency !== 'GBP') throw invalid('currency', 'FASTER_PAYMENTS pays GBP only');
      if (details.bankCountry !== 'GB') throw invalid('bankCountry', 'FASTER_PAYMENTS pays UK accounts only');
      return;
    case 'WIRE':
    case 'SWIFT':
      return;
  }
}

export function accountNumberLast4(accountNumber: string): string {
  return accountNumber.slice(-4);
}

export function bankDetailsView(details: BankDetails): BankDetailsView {
  const { accountNumber, ...shown } = details;
  return { ...shown, accountNumberLast4: accountNumberLast4(accountNumber) };
}

/**
 * Where the money lands, for duplicate detection: the IBAN names account and bank at once;
 * otherwise the account number at its bank (routing number, else the BIC's 8-character bank
 * code, so `DEUTDEFF` and `DEUTDEFFXXX` are the same bank).
 */
export function bankDestination(details: BankDetails): string {
  if (details.iban !== null) return `iban:${details.iban}`;
  const bank = details.routingNumber ?? details.swiftCode.slice(0, 8);
  return `account:${details.accountNumber}@${bank}`;
}

export type BankBeneficiaryInput = CommonInput & BankDetailsInput;

export interface ValidBankBeneficiary extends BeneficiaryCommon {
  bank: BankDetails;
}

/** POST /v1/beneficiaries/bank: the whole body, unknown fields refused. */
export function validBankBeneficiary(input: BankBeneficiaryInput, now: Date): ValidBankBeneficiary {
  const common = beneficiaryCommon(input, BANK_FIELDS, now);
  const bank: BankDetailsInput = Object.fromEntries(BANK_FIELDS.map((field) => [field, input[field]]));
  return { ...common, bank: bankDetails(bank) };
}
