import { assetIsCarriedOn, SANDBOX_CHAIN_CATALOG, SANDBOX_CHAINS, type ChainName, type ChainPlatform } from '@pfs/contracts';

export type AddressFormat = ChainPlatform;

export const CHAIN_ADDRESS_FORMATS: Readonly<Record<ChainName, AddressFormat>> = Object.fromEntries(
  SANDBOX_CHAINS.map((chain) => [chain, SANDBOX_CHAIN_CATALOG[chain].platform]),
) as Record<ChainName, AddressFormat>;

/**
 * The sandbox chains that carry each crypto asset (the contracts' ASSET_PLATFORMS): the
 * stablecoins on all six, ether on the EVM chains, bitcoin on none (it stays receivable only
 * once a Bitcoin testnet is added). Catalog order of chains is kept.
 */
export function depositChainsFor(asset: string): readonly ChainName[] {
  return SANDBOX_CHAINS.filter((chain) => assetIsCarriedOn(asset, SANDBOX_CHAIN_CATALOG[chain].platform));
}
