import { base58CheckEncode, base58Encode, solanaAddress, tronAddress } from '@pfs/codecs';
import { DomainError } from '@pfs/contracts';
import { chainsOf, cryptoDestination, cryptoDetails } from './crypto-details';

const EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const SOLANA = solanaAddress(new Uint8Array(32).fill(7));
const TRON = tronAddress(new Uint8Array(20).fill(9));

function expectRefused(run: () => unknown, field: string): void {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('invalid_request');
    expect((error as DomainError).message.startsWith(`${field}:`)).toBe(true);
    return;
  }
  throw new Error('expected invalid_request');
}

describe('crypto details', () => {
  it('answers chainName, chainDisplayName, platform and address', () => {
    expect(cryptoDetails({ chainName: 'ETHEREUM_SEPOLIA', address: EVM }, 'sandbox')).toEqual({
      chainName: 'ETHEREUM_SEPOLIA',
      chainDisplayName: 'Ethereum Sepolia',
      platform: 'EVM',
      address: EVM,
      asset: null,
    });
  });

  it('sandbox has the sandbox chains, production their mainnets', () => {
    expect(chainsOf('sandbox').map((chain) => chain.chainName)).toContain('TRON_NILE');
    expect(chainsOf('production').map((chain) => chain.chainName)).toEqual(['ETHEREUM', 'ARBITRUM', 'BASE', 'BSC', 'SOLANA', 'TRON']);
  });

  const ADDRESS_OF = { EVM, SOLANA, TRON } as const;
  it.each(chainsOf('sandbox').map((chain) => [chain.chainName, chain.platform] as const))('sandbox accepts %s with an address of its platform (%s)', (chainName, platform) => {
    expect(cryptoDetails({ chainName, address: ADDRESS_OF[platform as keyof typeof ADDRESS_OF] }, 'sandbox')).toMatchObject({ chainName, platform });
  });

  it.each([
    ['a mainnet in sandbox', 'ETHEREUM', 'sandbox'],
    ['a sandbox chain in production', 'ETHEREUM_SEPOLIA', 'production'],
    ['an inherited property name', 'toString', 'sandbox'],
  ] as const)('refuses %s', (_case, chainName, environment) => {
    expectRefused(() => cryptoDetails({ chainName, address: EVM }, environment), 'chainName');
  });

  describe('EVM', () => {
    it.each([
      ['lower case', EVM.toLowerCase()],
      ['upper case', `0x${EVM.slice(2).toUpperCase()}`],
    ])('accepts single-case hex (%s) and stores it EIP-55 checksummed', (_case, address) => {
      expect(cryptoDetails({ chainName: 'BASE_SEPOLIA', address }, 'sandbox').address).toBe(EVM);
    });
    it('refuses mixed case with a wrong checksum', () => expectRefused(() => cryptoDetails({ chainName: 'BASE_SEPOLIA', address: EVM.replace('aA', 'Aa') }, 'sandbox'), 'address'));
    it.each([
      ['a wrong length', EVM.slice(0, 40)],
      ['no 0x prefix', EVM.slice(2)],
    ])('refuses %s', (_case, address) => expectRefused(() => cryptoDetails({ chainName: 'BSC_TESTNET', address }, 'sandbox'), 'address'));
  });

  describe('Solana', () => {
    it.each([
      ['a key', SOLANA],
      ['the all-zero key', '1'.repeat(32)],
    ])('accepts base58 of 32 bytes: %s', (_case, address) => expect(cryptoDetails({ chainName: 'SOLANA_DEVNET', address }, 'sandbox').platform).toBe('SOLANA'));
    it.each([
      ['31 bytes', base58Encode(new Uint8Array(31).fill(7))],
      ['31 zero bytes', '1'.repeat(31)],
      ['a character outside base58', `${SOLANA.slice(1)}0`],
    ])('refuses %s', (_case, address) => expectRefused(() => cryptoDetails({ chainName: 'SOLANA_DEVNET', address }, 'sandbox'), 'address'));
    it('refuses an EVM address on Solana', () => expectRefused(() => cryptoDetails({ chainName: 'SOLANA_DEVNET', address: EVM }, 'sandbox'), 'address'));
  });

  describe('Tron', () => {
    it('accepts base58check with the 0x41 prefix', () => expect(cryptoDetails({ chainName: 'TRON_NILE', address: TRON }, 'sandbox').address).toBe(TRON));
    it.each([
      ['another prefix (0x42)', base58CheckEncode(Uint8Array.from([0x42, ...new Uint8Array(20).fill(9)]))],
      ['a Bitcoin address (prefix 0x00)', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'],
      ['a broken checksum', `${TRON.slice(0, -1)}${TRON.at(-1) === '1' ? '2' : '1'}`],
    ])('refuses %s', (_case, address) => expectRefused(() => cryptoDetails({ chainName: 'TRON_NILE', address }, 'sandbox'), 'address'));
  });

  describe('asset', () => {
    it.each([
      ['USDT on Tron, upper-cased', 'TRON_NILE', TRON, 'usdt', 'USDT'],
      ['ETH on an EVM chain', 'BASE_SEPOLIA', EVM, 'ETH', 'ETH'],
    ])('accepts a crypto asset the chain carries: %s', (_case, chainName, address, asset, stored) => {
      expect(cryptoDetails({ chainName, address, asset }, 'sandbox').asset).toBe(stored);
    });
    it.each([
      ['a fiat asset', 'TRON_NILE', TRON, 'USD'],
      ['ETH on Tron', 'TRON_NILE', TRON, 'ETH'],
      ['ETH on Solana', 'SOLANA_DEVNET', SOLANA, 'ETH'],
    ])('refuses %s', (_case, chainName, address, asset) => expectRefused(() => cryptoDetails({ chainName, address, asset }, 'sandbox'), 'asset'));
  });

  it('the destination ignores EVM letter case', () => {
    const a = cryptoDetails({ chainName: 'ETHEREUM_SEPOLIA', address: EVM }, 'sandbox');
    const b = cryptoDetails({ chainName: 'ETHEREUM_SEPOLIA', address: EVM.toLowerCase() }, 'sandbox');
    expect(cryptoDestination(a)).toBe(cryptoDestination(b));
  });

  it('the destination differs by chain for the same address', () => {
    const a = cryptoDetails({ chainName: 'ETHEREUM_SEPOLIA', address: EVM }, 'sandbox');
    expect(cryptoDestination(a)).not.toBe(cryptoDestination(cryptoDetails({ chainName: 'BASE_SEPOLIA', address: EVM }, 'sandbox')));
  });
});
