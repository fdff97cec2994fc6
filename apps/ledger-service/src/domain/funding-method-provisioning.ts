import type { AssetDefinition } from '@pfs/contracts';
import type { FundingMethod } from './account';
import { evmAddress, solanaAddress, tronAddress } from '@pfs/codecs';
import { eurBankDetails, usdBankDetails, type RandomBytes } from './bank-details';
import { CHAIN_ADDRESS_FORMATS, depositChainsFor, type AddressFormat } from './deposit-chains';

export interface ProvisioningInput {
  accountId: string;
  asset: AssetDefinition;
  /** What the account already holds for this asset. */
  existing: readonly FundingMethod[];
  now: Date;
  random: RandomBytes;
  /** A new funding method id (`fm_…`). */
  nextId: () => string;
}

const FIAT_BANK_DETAILS: Readonly<Record<string, typeof usdBankDetails>> = { USD: usdBankDetails, EUR: eurBankDetails };

const ADDRESS_OF: Readonly<Record<AddressFormat, (random: RandomBytes) => string>> = {
  EVM: (random) => evmAddress(random(20)),
  SOLANA: (random) => solanaAddress(random(32)),
  TRON: (random) => tronAddress(random(20)),
};

/**
 * The receiving methods the account still lacks for the asset (api-decisions §4): a crypto
 * asset gets one deposit address per sandbox chain carrying it, a fiat asset one bank account.
 * Methods already held are never replaced, so calling this again adds nothing, and a chain
 * added to the catalog later is provisioned on the next call.
 */
export function missingFundingMethods(input: ProvisioningInput): FundingMethod[] {
  const { accountId, asset, existing, now, random, nextId } = input;
  if (asset.type === 'CRYPTO') {
    const held = new Set(existing.map((method) => method.chainName));
    return depositChainsFor(asset.code)
      .filter((chain) => !held.has(chain))
      .map((chainName) => ({
        id: nextId(),
        accountId,
        asset: asset.code,
        type: 'CRYPTO_ADDRESS',
        chainName,
        address: ADDRESS_OF[CHAIN_ADDRESS_FORMATS[chainName]](random),
        bank: null,
        createdAt: now,
      }));
  }
  const bankDetails = FIAT_BANK_DETAILS[asset.code];
  if (!bankDetails || existing.some((method) => method.type === 'BANK_ACCOUNT')) return [];
  const id = nextId();
  return [
    {
      id,
      accountId,
      asset: asset.code,
      type: 'BANK_ACCOUNT',
      chainName: null,
      address: null,
      bank: bankDetails(random, bankReference(id)),
      createdAt: now,
    },
  ];
}

/**
 * The reference a payer quotes so the transfer is credited to this method. Derived from the
 * method's id, it is unique by construction, and at 35 characters it fits one SWIFT line.
 */
export function bankReference(fundingMethodId: string): string {
  return `PFS${fundingMethodId.slice(fundingMethodId.indexOf('_') + 1).toUpperCase()}`;
}

/** The order in which methods are listed: oldest first, then by asset and chain, then id. */
export function compareFundingMethods(a: FundingMethod, b: FundingMethod): number {
  return (
    a.createdAt.getTime() - b.createdAt.getTime() ||
    compareText(a.asset, b.asset) ||
    compareText(a.chainName ?? '', b.chainName ?? '') ||
    compareText(a.id, b.id)
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
