/** api-decisions §4: the asset catalog. */
export type AssetType = 'FIAT' | 'CRYPTO';

export interface AssetDefinition {
  code: string;
  name: string;
  type: AssetType;
  scale: number;
}

export const ASSET_CATALOG: readonly AssetDefinition[] = [
  { code: 'USD', name: 'US Dollar', type: 'FIAT', scale: 2 },
  { code: 'EUR', name: 'Euro', type: 'FIAT', scale: 2 },
  { code: 'USDC', name: 'USD Coin', type: 'CRYPTO', scale: 6 },
  { code: 'USDT', name: 'Tether USD', type: 'CRYPTO', scale: 6 },
  { code: 'BTC', name: 'Bitcoin', type: 'CRYPTO', scale: 8 },
  { code: 'ETH', name: 'Ether', type: 'CRYPTO', scale: 18 },
];

const BY_CODE = new Map(ASSET_CATALOG.map((asset) => [asset.code, asset]));

export function findAsset(code: string): AssetDefinition | undefined {
  return BY_CODE.get(code);
}

export const ASSET_STATUSES = ['ENABLED', 'AVAILABLE'] as const;
export type AssetStatus = (typeof ASSET_STATUSES)[number];

/** Sandbox chains of spec 4.6. */
export const SANDBOX_CHAINS = [
  'ETHEREUM_SEPOLIA',
  'ARBITRUM_SEPOLIA',
  'BASE_SEPOLIA',
  'BSC_TESTNET',
  'SOLANA_DEVNET',
  'TRON_NILE',
] as const;
export type ChainName = (typeof SANDBOX_CHAINS)[number];

/** How a chain's addresses are written (and checked): one codec per platform. */
export type ChainPlatform = 'EVM' | 'SOLANA' | 'TRON';

export interface ChainDefinition {
  chainName: string;
  chainDisplayName: string;
  platform: ChainPlatform;
}

type ChainCatalog<C extends string> = Readonly<Record<C, Omit<ChainDefinition, 'chainName'>>>;

/** The sandbox chains with their display names and platforms (typed on SANDBOX_CHAINS, so a new chain must be described here). */
export const SANDBOX_CHAIN_CATALOG: ChainCatalog<ChainName> = {
  ETHEREUM_SEPOLIA: { chainDisplayName: 'Ethereum Sepolia', platform: 'EVM' },
  ARBITRUM_SEPOLIA: { chainDisplayName: 'Arbitrum Sepolia', platform: 'EVM' },
  BASE_SEPOLIA: { chainDisplayName: 'Base Sepolia', platform: 'EVM' },
  BSC_TESTNET: { chainDisplayName: 'BNB Smart Chain Testnet', platform: 'EVM' },
  SOLANA_DEVNET: { chainDisplayName: 'Solana Devnet', platform: 'SOLANA' },
  TRON_NILE: { chainDisplayName: 'Tron Nile Testnet', platform: 'TRON' },
};

/** The mainnets of those chains: production pays out there, the sandbox never does. */
export const PRODUCTION_CHAIN_CATALOG: ChainCatalog<'ETHEREUM' | 'ARBITRUM' | 'BASE' | 'BSC' | 'SOLANA' | 'TRON'> = {
  ETHEREUM: { chainDisplayName: 'Ethereum', platform: 'EVM' },
  ARBITRUM: { chainDisplayName: 'Arbitrum One', platform: 'EVM' },
  BASE: { chainDisplayName: 'Base', platform: 'EVM' },
  BSC: { chainDisplayName: 'BNB Smart Chain', platform: 'EVM' },
  SOLANA: { chainDisplayName: 'Solana', platform: 'SOLANA' },
  TRON: { chainDisplayName: 'Tron', platform: 'TRON' },
};

/**
 * The platforms that carry each crypto asset (api-decisions §4): the stablecoins everywhere,
 * ether on EVM chains, bitcoin on none of these chains. One table for the ledger's deposit
 * addresses and the beneficiaries' payout chains.
 */
export const ASSET_PLATFORMS: Readonly<Record<string, readonly ChainPlatform[]>> = {
  USDC: ['EVM', 'SOLANA', 'TRON'],
  USDT: ['EVM', 'SOLANA', 'TRON'],
  ETH: ['EVM'],
  BTC: [],
};

export function assetIsCarriedOn(asset: string, platform: ChainPlatform): boolean {
  return (ASSET_PLATFORMS[asset] ?? []).includes(platform);
}
