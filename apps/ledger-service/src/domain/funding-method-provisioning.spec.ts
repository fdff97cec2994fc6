import { createHash } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { findAsset, newId, SANDBOX_CHAINS, type AssetDefinition } from '@pfs/contracts';
import type { FundingMethod } from './account';
import { base58CheckDecode, base58Decode } from '@pfs/codecs';
import type { RandomBytes } from './bank-details';
import { bankReference, compareFundingMethods, missingFundingMethods } from './funding-method-provisioning';

/** A deterministic byte stream: tests pin the randomness port. */
function seeded(seed: string): RandomBytes {
  let counter = 0;
  return (length) => {
    const out = Buffer.alloc(length);
    for (let filled = 0; filled < length; filled += 32) {
      createHash('sha256').update(`${seed}:${counter++}`).digest().copy(out, filled);
    }
    return Uint8Array.from(out);
  };
}

function asset(code: string): AssetDefinition {
  const found = findAsset(code);
  if (!found) throw new Error(`no asset ${code}`);
  return found;
}

const EVM = ['ETHEREUM_SEPOLIA', 'ARBITRUM_SEPOLIA', 'BASE_SEPOLIA', 'BSC_TESTNET'];
const now = new Date('2026-11-21T04:44:09.123Z');
const accountId = 'acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c';

function provision(code: string, existing: FundingMethod[] = [], seed = code): FundingMethod[] {
  return missingFundingMethods({ accountId, asset: asset(code), existing, now, random: seeded(seed), nextId: () => newId('fundingMethod') });
}

function isValidAddress(chain: string, address: string): boolean {
  if (EVM.includes(chain)) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return false;
    const hash = Buffer.from(keccak_256(Buffer.from(address.slice(2).toLowerCase(), 'ascii'))).toString('hex');
    return [...address.slice(2)].every((char, index) => !/[a-f]/i.test(char) || (parseInt(hash[index], 16) >= 8) === (char === char.toUpperCase()));
  }
  if (chain === 'SOLANA_DEVNET') return base58Decode(address)?.length === 32;
  if (chain === 'TRON_NILE') {
    const payload = base58CheckDecode(address);
    return address.startsWith('T') && payload?.length === 21 && payload[0] === 0x41;
  }
  return false;
}

describe('funding method provisioning', () => {
  it.each(['USDC', 'USDT'])('gives %s one valid deposit address on each of the six sandbox chains', (code) => {
    const methods = provision(code);
    expect(methods.map((method) => method.chainName)).toEqual([...SANDBOX_CHAINS]);
    for (const method of methods) {
      expect(method).toEqual({
        id: expect.stringMatching(/^fm_[0-9a-f]{32}$/),
        accountId,
        asset: code,
        type: 'CRYPTO_ADDRESS',
        chainName: method.chainName,
        address: expect.any(String),
        bank: null,
        createdAt: now,
      });
      expect({ chain: method.chainName, valid: isValidAddress(method.chainName ?? '', method.address ?? '') }).toEqual({ chain: method.chainName, valid: true });
    }
    expect(new Set(methods.map((method) => method.address)).size).toBe(6);
  });

  it('gives ETH addresses on the four EVM chains only, and BTC none in the sandbox', () => {
    const eth = provision('ETH');
    expect(eth.map((method) => method.chainName)).toEqual(EVM);
    expect(eth.every((method) => isValidAddress(method.chainName ?? '', method.address ?? ''))).toBe(true);
    expect(provision('BTC')).toEqual([]);
  });

  it('draws every address from the randomness port: same bytes, same addresses', () => {
    const addresses = (seed: string) => provision('USDC', [], seed).map((method) => method.address);
    expect(addresses('pinned')).toEqual(addresses('pinned'));
    expect(addresses('pinned')).not.toEqual(addresses('other'));
  });

  it('gives USD one bank account with routing and account numbers and a reference', () => {
    const [method, ...rest] = provision('USD');
    expect(rest).toEqual([]);
    expect(method).toMatchObject({ accountId, asset: 'USD', type: 'BANK_ACCOUNT', chainName: null, address: null, createdAt: now });
    expect(method.bank).toEqual({
      bankName: expect.any(String),
      accountNumber: expect.stringMatching(/^\d{12}$/),
      routingNumber: expect.stringMatching(/^\d{9}$/),
      iban: null,
      swiftCode: null,
      reference: bankReference(method.id),
    });
  });

  it('gives EUR one bank account with an IBAN whose check digits verify, and a BIC', () => {
    const [method] = provision('EUR');
    const iban = method.bank?.iban ?? '';
    expect(iban).toMatch(/^DE\d{20}$/);
    const rearranged = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (char) => String(char.charCodeAt(0) - 55));
    expect(BigInt(rearranged) % 97n).toBe(1n);
    expect(method.bank).toMatchObject({ routingNumber: null, swiftCode: expect.stringMatching(/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/) });
  });

  it('derives a unique 35-character reference from the method id', () => {
    expect(bankReference('fm_0123456789abcdef0123456789abcdef')).toBe('PFS0123456789ABCDEF0123456789ABCDEF');
    const references = Array.from({ length: 20 }, (_, index) => provision('USD', [], `r${index}`)[0].bank?.reference);
    expect(new Set(references).size).toBe(20);
    expect(references.every((reference) => reference?.length === 35)).toBe(true);
  });

  it('provisions only what is missing: nothing again, and only the chains not yet held', () => {
    const usdc = provision('USDC');
    expect(provision('USDC', usdc)).toEqual([]);
    const partial = provision('USDC', usdc.slice(0, 2));
    expect(partial.map((method) => method.chainName)).toEqual(SANDBOX_CHAINS.slice(2));
    const usd = provision('USD');
    expect(provision('USD', usd)).toEqual([]);
  });

  it('lists oldest first, then by asset and chain, bank accounts before addresses of the same asset', () => {
    const later = new Date(now.getTime() + 1);
    const methods = [
      ...provision('USDC').map((method) => ({ ...method, createdAt: later })),
      ...provision('ETH'),
      ...provision('USD'),
    ];
    const sorted = [...methods].sort(compareFundingMethods);
    expect(sorted.map((method) => `${method.asset}:${method.chainName ?? '-'}`)).toEqual([
      'ETH:ARBITRUM_SEPOLIA',
      'ETH:BASE_SEPOLIA',
      'ETH:BSC_TESTNET',
      'ETH:ETHEREUM_SEPOLIA',
      'USD:-',
      'USDC:ARBITRUM_SEPOLIA',
      'USDC:BASE_SEPOLIA',
      'USDC:BSC_TESTNET',
      'USDC:ETHEREUM_SEPOLIA',
      'USDC:SOLANA_DEVNET',
      'USDC:TRON_NILE',
    ]);
  });
});
