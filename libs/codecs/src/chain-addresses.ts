import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { base58, createBase58check } from '@scure/base';

/**
 * Address codecs of the chains the platform uses, one module for every service that creates
 * or checks an address (the ledger's deposit addresses, crypto beneficiaries). Base58 and
 * base58check come from @scure/base, keccak-256 and SHA-256 from @noble/hashes.
 */

/** Base58check: base58 of the payload and the first 4 bytes of its double SHA-256. */
const base58check = createBase58check(sha256);

export type AddressPlatform = 'EVM' | 'SOLANA' | 'TRON';

/** Tron's mainnet-and-testnet address prefix byte: its base58check form starts with `T`. */
export const TRON_ADDRESS_PREFIX = 0x41;

export function base58Encode(bytes: Uint8Array): string {
  return base58.encode(bytes);
}

/** Null when the text holds a character outside the alphabet. */
export function base58Decode(text: string): Uint8Array | null {
  try {
    return base58.decode(text);
  } catch {
    return null;
  }
}

export function base58CheckEncode(payload: Uint8Array): string {
  return base58check.encode(payload);
}

/** The payload, or null when the text is not base58 or its checksum does not match. */
export function base58CheckDecode(text: string): Uint8Array | null {
  try {
    return base58check.decode(text);
  } catch {
    return null;
  }
}

/**
 * EIP-55: a hex letter is upper case when the matching nibble of keccak-256 of the lower-case
 * hex address (as ASCII) is 8 or more.
 */
export function toChecksumAddress(address: string): string {
  const hex = address.replace(/^0x/i, '').toLowerCase();
  if (!/^[0-9a-f]{40}$/.test(hex)) throw new RangeError('an EVM address is 20 bytes of hex');
  const hash = Buffer.from(keccak_256(new TextEncoder().encode(hex))).toString('hex');
  let checksummed = '0x';
  for (let index = 0; index < hex.length; index++) {
    checksummed += parseInt(hash[index], 16) >= 8 ? hex[index].toUpperCase() : hex[index];
  }
  return checksummed;
}

/** An EVM account address from 20 bytes: `0x` + 40 hex, EIP-55 checksummed. */
export function evmAddress(bytes: Uint8Array): string {
  if (bytes.length !== 20) throw new RangeError('an EVM address is 20 bytes');
  return toChecksumAddress(Buffer.from(bytes).toString('hex'));
}

/** A Solana address is the base58 form of a 32-byte public key. */
export function solanaAddress(bytes: Uint8Array): string {
  if (bytes.length !== 32) throw new RangeError('a Solana address is 32 bytes');
  return base58Encode(bytes);
}

/** A Tron address: base58check of 0x41 followed by the 20-byte account id. */
export function tronAddress(bytes: Uint8Array): string {
  if (bytes.length !== 20) throw new RangeError('a Tron address is 20 bytes');
  return base58CheckEncode(Uint8Array.from([TRON_ADDRESS_PREFIX, ...bytes]));
}

/**
 * Whether the text is a valid address on a chain of that platform: EVM `0x` + 40 hex, its
 * EIP-55 checksum enforced when the letters are of mixed case; Solana base58 of 32 bytes; Tron
 * base58check of 21 bytes starting with 0x41.
 */
export function isValidAddress(platform: AddressPlatform, text: string): boolean {
  switch (platform) {
    case 'EVM': {
      if (!/^0x[0-9a-fA-F]{40}$/.test(text)) return false;
      const letters = text.slice(2).replace(/[0-9]/g, '');
      const singleCase = letters === letters.toLowerCase() || letters === letters.toUpperCase();
      return singleCase || toChecksumAddress(text) === text;
    }
    case 'SOLANA':
      return base58Decode(text)?.length === 32;
    case 'TRON': {
      const payload = base58CheckDecode(text);
      return payload?.length === 21 && payload[0] === TRON_ADDRESS_PREFIX;
    }
  }
}
