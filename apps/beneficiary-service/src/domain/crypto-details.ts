import { isValidAddress, toChecksumAddress } from '@pfs/codecs';
import { assetIsCarriedOn, findAsset, PRODUCTION_CHAIN_CATALOG, SANDBOX_CHAIN_CATALOG, type ChainDefinition } from '@pfs/contracts';
import { beneficiaryCommon, invalid, optionalText, requiredText, type BeneficiaryCommon, type CommonInput } from './beneficiary-fields';

/**
 * Crypto details of a crypto beneficiary: a chain of the environment's catalog and an address
 * valid on it (the address codecs are the ones the ledger's deposit addresses use).
 */

export type ChainEnvironment = 'sandbox' | 'production';

export type { ChainDefinition };

function catalogOf(environment: ChainEnvironment): Readonly<Record<string, Omit<ChainDefinition, 'chainName'>>> {
  return environment === 'sandbox' ? SANDBOX_CHAIN_CATALOG : PRODUCTION_CHAIN_CATALOG;
}

export function chainsOf(environment: ChainEnvironment): ChainDefinition[] {
  return Object.entries(catalogOf(environment)).map(([chainName, chain]) => ({ chainName, ...chain }));
}

export function findChain(environment: ChainEnvironment, chainName: string): ChainDefinition | undefined {
  const chain = Object.hasOwn(catalogOf(environment), chainName) ? catalogOf(environment)[chainName] : undefined;
  return chain && { chainName, ...chain };
}

/** `crypto` of spec 2.5, plus the optional asset the beneficiary is paid in. */
export interface CryptoDetails extends ChainDefinition {
  address: string;
  asset: string | null;
}

export const CRYPTO_FIELDS: readonly string[] = ['chainName', 'address', 'asset'];

/**
 * An address valid on the chain's platform. EVM addresses are stored EIP-55 checksummed so that
 * the same wallet written in two cases is one destination.
 */
export function walletAddress(chain: ChainDefinition, value: unknown, field = 'address'): string {
  const address = requiredText(field, value, 64);
  if (!isValidAddress(chain.platform, address)) {
    throw invalid(field, `is not a valid ${chain.chainDisplayName} address${chain.platform === 'EVM' ? ' (0x + 40 hex, EIP-55 checksum when mixed case)' : ''}`);
  }
  return chain.platform === 'EVM' ? toChecksumAddress(address) : address;
}

export function cryptoDetails(input: { chainName?: unknown; address?: unknown; asset?: unknown }, environment: ChainEnvironment): CryptoDetails {
  const chainName = requiredText('chainName', input.chainName, 64);
  const chain = findChain(environment, chainName);
  if (!chain) throw invalid('chainName', `${chainName} is not a chain of the ${environment} (${Object.keys(catalogOf(environment)).join(', ')})`);
  const address = walletAddress(chain, input.address);
  const assetCode = optionalText('asset', input.asset, 10)?.toUpperCase() ?? null;
  if (assetCode !== null) {
    if (findAsset(assetCode)?.type !== 'CRYPTO') throw invalid('asset', `${assetCode} is not a CRYPTO asset of the catalog`);
    if (!assetIsCarriedOn(assetCode, chain.platform)) throw invalid('asset', `${assetCode} is not carried on ${chain.chainName}`);
  }
  return { ...chain, address, asset: assetCode };
}

/** The chain and address, EVM case-folded (the checksum is presentation, not identity). */
export function cryptoDestination(details: CryptoDetails): string {
  const address = details.platform === 'EVM' ? details.address.toLowerCase() : details.address;
  return `chain:${details.chainName}:${address}`;
}

export type CryptoBeneficiaryInput = CommonInput & { chainName?: unknown; address?: unknown; asset?: unknown };

export interface ValidCryptoBeneficiary extends BeneficiaryCommon {
  crypto: CryptoDetails;
}

/** POST /v1/beneficiaries/crypto: the whole body, unknown fields refused. */
export function validCryptoBeneficiary(input: CryptoBeneficiaryInput, environment: ChainEnvironment, now: Date): ValidCryptoBeneficiary {
  const common = beneficiaryCommon(input, CRYPTO_FIELDS, now);
  return { ...common, crypto: cryptoDetails(input, environment) };
}
