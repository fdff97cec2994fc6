import { assetIsCarriedOn, type PayableBeneficiaryView, type PayoutRail } from '@pfs/contracts';
import { BeneficiaryBlockedError, LedgerRequestError } from './ledger-errors';

/** The beneficiary type each rail pays. */
const TYPE_OF_RAIL: Readonly<Record<PayoutRail, PayableBeneficiaryView['type']>> = { FIAT: 'BANK', CRYPTO: 'CRYPTO' };

/**
 * Whether a beneficiary may receive a payout of `asset` on `rail` (api-decisions §5): the rail's
 * type (BANK for fiat, CRYPTO for crypto), ACTIVE (BLOCKED is `beneficiary_blocked`, INACTIVE and
 * ARCHIVED `invalid_request`), a fiat asset equal to the bank account's currency, a crypto asset
 * carried by the beneficiary's chain (and equal to the asset it was registered for, if any).
 * Answers the chain a crypto payout goes out on (null for fiat).
 */
export function payoutDestination(rail: PayoutRail, asset: string, beneficiary: PayableBeneficiaryView): { chainName: string | null } {
  const id = beneficiary.beneficiaryId;
  const type = TYPE_OF_RAIL[rail];
  if (beneficiary.type !== type) {
    throw new LedgerRequestError(`beneficiaryId: beneficiary ${id} is a ${beneficiary.type} beneficiary; a ${rail.toLowerCase()} payout needs a ${type} one.`);
  }
  if (beneficiary.status === 'BLOCKED') throw new BeneficiaryBlockedError(id);
  if (beneficiary.status !== 'ACTIVE' || !beneficiary.payable) {
    throw new LedgerRequestError(`beneficiaryId: beneficiary ${id} is ${beneficiary.status}; only an ACTIVE beneficiary can be paid.`);
  }
  if (rail === 'FIAT') {
    const currency = beneficiary.bank?.currency;
    if (!currency) throw new LedgerRequestError(`beneficiaryId: beneficiary ${id} has no bank details.`);
    if (currency !== asset) throw new LedgerRequestError(`asset: beneficiary ${id} is paid in ${currency}, not ${asset}.`);
    return { chainName: null };
  }
  const crypto = beneficiary.crypto;
  if (!crypto) throw new LedgerRequestError(`beneficiaryId: beneficiary ${id} has no crypto details.`);
  if (!assetIsCarriedOn(asset, crypto.platform)) {
    throw new LedgerRequestError(`asset: ${asset} is not carried on ${crypto.chainName}, the chain of beneficiary ${id}.`);
  }
  if (crypto.asset !== null && crypto.asset !== asset) {
    throw new LedgerRequestError(`asset: beneficiary ${id} was registered for ${crypto.asset} only, not ${asset}.`);
  }
  return { chainName: crypto.chainName };
}
