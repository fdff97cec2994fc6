import { assetIsCarriedOn, type PayableBeneficiaryView, type PayoutDestinationView, type PayoutRail } from '@pfs/contracts';
import { BeneficiaryBlockedError, LedgerRequestError } from './ledger-errors';

/** The beneficiary type each rail pays. */
const TYPE_OF_RAIL: Readonly<Record<PayoutRail, PayableBeneficiaryView['type']>> = { FIAT: 'BANK', CRYPTO: 'CRYPTO' };

/**
 * One rule for payouts and transfers alike: a beneficiary is paid only from the account it is
 * registered on. Beneficiaries are filed per account (created with an `accountId`, listed and
 * de-duplicated per account, moved by PATCH), so one on another of the organization's accounts
 * is refused with `invalid_request` naming `beneficiaryId`, never paid from an account its
 * owner did not file it under. Checked once the paying account is known to be the caller's
 * (another organization's account stays `account_not_found`).
 */
export function assertBeneficiaryOfAccount(beneficiary: PayableBeneficiaryView, accountId: string): void {
  if (beneficiary.accountId !== accountId) {
    throw new LedgerRequestError(
      `beneficiaryId: beneficiary ${beneficiary.beneficiaryId} belongs to another of your accounts, not ${accountId}; pay it from its own account or move it there with PATCH /v1/beneficiaries/{beneficiaryId}.`,
    );
  }
}

/** Only an ACTIVE beneficiary is paid: BLOCKED is `beneficiary_blocked`, INACTIVE and ARCHIVED `invalid_request`. */
export function assertPayable(beneficiary: PayableBeneficiaryView): void {
  const id = beneficiary.beneficiaryId;
  if (beneficiary.status === 'BLOCKED') throw new BeneficiaryBlockedError(id);
  if (beneficiary.status !== 'ACTIVE' || !beneficiary.payable) {
    throw new LedgerRequestError(`beneficiaryId: beneficiary ${id} is ${beneficiary.status}; only an ACTIVE beneficiary can be paid.`);
  }
}

/**
 * Whether a beneficiary may receive a payout of `asset` on `rail` (api-decisions §5): the rail's
 * type (BANK for fiat, CRYPTO for crypto), ACTIVE, a fiat asset equal to the bank account's
 * currency, a crypto asset carried by the beneficiary's chain (and equal to the asset it was
 * registered for, if any); its account is `assertBeneficiaryOfAccount`'s. Answers the chain a
 * crypto payout goes out on (null for fiat) and the destination the payout keeps: what it is
 * sent to from now on, whatever later happens to the beneficiary, masked (the bank account only
 * by its last four).
 */
export function payoutDestination(rail: PayoutRail, asset: string, beneficiary: PayableBeneficiaryView): { chainName: string | null; destination: PayoutDestinationView } {
  const id = beneficiary.beneficiaryId;
  const type = TYPE_OF_RAIL[rail];
  if (beneficiary.type !== type) {
    throw new LedgerRequestError(`beneficiaryId: beneficiary ${id} is a ${beneficiary.type} beneficiary; a ${rail.toLowerCase()} payout needs a ${type} one.`);
  }
  assertPayable(beneficiary);
  const holder = { rail, nickname: beneficiary.nickname, name: beneficiary.name };
  if (rail === 'FIAT') {
    const bank = beneficiary.bank;
    if (!bank) throw new LedgerRequestError(`beneficiaryId: beneficiary ${id} has no bank details.`);
    if (bank.currency !== asset) throw new LedgerRequestError(`asset: beneficiary ${id} is paid in ${bank.currency}, not ${asset}.`);
    const { bankName, method, currency, swiftCode, bankCountry, routingNumber, accountNumberLast4 } = bank;
    return { chainName: null, destination: { ...holder, bank: { bankName, method, currency, swiftCode, bankCountry, routingNumber, accountNumberLast4 }, crypto: null } };
  }
  const crypto = beneficiary.crypto;
  if (!crypto) throw new LedgerRequestError(`beneficiaryId: beneficiary ${id} has no crypto details.`);
  if (!assetIsCarriedOn(asset, crypto.platform)) {
    throw new LedgerRequestError(`asset: ${asset} is not carried on ${crypto.chainName}, the chain of beneficiary ${id}.`);
  }
  if (crypto.asset !== null && crypto.asset !== asset) {
    throw new LedgerRequestError(`asset: beneficiary ${id} was registered for ${crypto.asset} only, not ${asset}.`);
  }
  const { chainName, platform, address } = crypto;
  return { chainName, destination: { ...holder, bank: null, crypto: { chainName, platform, address } } };
}
