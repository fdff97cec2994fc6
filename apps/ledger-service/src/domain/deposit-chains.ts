import type { ChainName } from '@pfs/contracts';

export type AddressFormat = 'EVM' | 'SOLANA' | 'TRON';

export const CHAIN_ADDRESS_FORMATS: Readonly<Record<ChainName, AddressFormat>> = {
  ETHEREUM_SEPOLIA: 'EVM',
  ARBITRUM_SEPOLIA: 'EVM',
  BASE_SEPOLIA: 'EVM',
  BSC_TESTNET: 'EVM',
  SOLANA_DEVNET: 'SOLANA',
  TRON_NILE: 'TRON',
};

const EVM_CHAINS: readonly ChainName[] = ['ETHEREUM_SEPOLIA', 'ARBITRUM_SEPOLIA', 'BASE_SEPOLIA', 'BSC_TESTNET'];
const ALL_CHAINS: readonly ChainName[] = [...EVM_CHAINS, 'SOLANA_DEVNET', 'TRON_NILE'];

/**
 * The sandbox chains that carry each crypto asset (api-decisions §4): the stablecoins on all
 * six, ether on the EVM chains, bitcoin on none (it stays receivable only once a Bitcoin
 * testnet is added). Catalog order of chains is kept.
 */
const SANDBOX_DEPOSIT_CHAINS: Readonly<Record<string, readonly ChainName[]>> = {
  USDC: ALL_CHAINS,
  USDT: ALL_CHAINS,
  ETH: EVM_CHAINS,
  BTC: [],
};

export function depositChainsFor(asset: string): readonly ChainName[] {
  return SANDBOX_DEPOSIT_CHAINS[asset] ?? [];
}
