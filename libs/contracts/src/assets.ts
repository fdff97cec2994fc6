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
