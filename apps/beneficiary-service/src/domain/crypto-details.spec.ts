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
    expectRefused(() => cryptoDetails({ chainName: 'ETHEREUM', address: EVM }, 'sandbox'), 'chainName');
    expectRefused(() => cryptoDetails({ chainName: 'ETHEREUM_SEPOLIA', address: EVM }, 'production'), 'chainName');
    expectRefused(() => cryptoDetails({ chainName: 'toString', address: EVM }, 'sandbox'), 'chainName');
  });

  describe('EVM', () => {
    it('accepts single-case hex and stores it EIP-55 checksummed', () => {
      expect(cryptoDetails({ chainName: 'BASE_SEPOLIA', address: EVM.toLowerCase() }, 'sandbox').address).toBe(EVM);
      expect(cryptoDetails({ chainName: 'BASE_SEPOLIA', address: `0x${EVM.slice(2).toUpperCase()}` }, 'sandbox').address).toBe(EVM);
    });
    it('refuses mixed case with a wrong checksum', () => expectRefused(() => cryptoDetails({ chainName: 'BASE_SEPOLIA', address: EVM.replace('aA', 'Aa') }, 'sandbox'), 'address'));
    it('refuses a wrong length or prefix', () => {
      expectRefused(() => cryptoDetails({ chainName: 'BSC_TESTNET', address: EVM.slice(0, 40) }, 'sandbox'), 'address');
      expectRefused(() => cryptoDetails({ chainName: 'BSC_TESTNET', address: EVM.slice(2) }, 'sandbox'), 'address');
    });
  });

  describe('Solana', () => {
    it('accepts base58 of 32 bytes', () => expect(cryptoDetails({ chainName: 'SOLANA_DEVNET', address: SOLANA }, 'sandbox').platform).toBe('SOLANA'));
    it('refuses 31 bytes and non-base58', () => {
      expectRefused(() => cryptoDetails({ chainName: 'SOLANA_DEVNET', address: base58Encode(new Uint8Array(31).fill(7)) }, 'sandbox'), 'address');
      expectRefused(() => cryptoDetails({ chainName: 'SOLANA_DEVNET', address: `${SOLANA.slice(1)}0` }, 'sandbox'), 'address');
    });
    it('refuses an EVM address on Solana', () => expectRefused(() => cryptoDetails({ chainName: 'SOLANA_DEVNET', address: EVM }, 'sandbox'), 'address'));
  });

  describe('Tron', () => {
    it('accepts base58check with the 0x41 prefix', () => expect(cryptoDetails({ chainName: 'TRON_NILE', address: TRON }, 'sandbox').address).toBe(TRON));
    it('refuses another prefix and a broken checksum', () => {
      expectRefused(() => cryptoDetails({ chainName: 'TRON_NILE', address: base58CheckEncode(Uint8Array.from([0x42, ...new Uint8Array(20).fill(9)])) }, 'sandbox'), 'address');
      const last = TRON.at(-1) === '1' ? '2' : '1';
      expectRefused(() => cryptoDetails({ chainName: 'TRON_NILE', address: `${TRON.slice(0, -1)}${last}` }, 'sandbox'), 'address');
    });
  });

  describe('asset', () => {
    it('accepts a crypto asset the chain carries', () => expect(cryptoDetails({ chainName: 'TRON_NILE', address: TRON, asset: 'usdt' }, 'sandbox').asset).toBe('USDT'));
    it('refuses a fiat asset and one the chain does not carry', () => {
      expectRefused(() => cryptoDetails({ chainName: 'TRON_NILE', address: TRON, asset: 'USD' }, 'sandbox'), 'asset');
      expectRefused(() => cryptoDetails({ chainName: 'TRON_NILE', address: TRON, asset: 'ETH' }, 'sandbox'), 'asset');
    });
  });

  it('the destination ignores EVM letter case', () => {
    const a = cryptoDetails({ chainName: 'ETHEREUM_SEPOLIA', address: EVM }, 'sandbox');
    const b = cryptoDetails({ chainName: 'ETHEREUM_SEPOLIA', address: EVM.toLowerCase() }, 'sandbox');
    expect(cryptoDestination(a)).toBe(cryptoDestination(b));
    expect(cryptoDestination(a)).not.toBe(cryptoDestination(cryptoDetails({ chainName: 'BASE_SEPOLIA', address: EVM }, 'sandbox')));
  });
});
