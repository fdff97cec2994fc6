import { createHash } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';

/** Bitcoin's base58 alphabet, used by Solana and Tron: no 0, O, I or l. */
const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE58_INDEX = new Map([...BASE58_ALPHABET].map((char, index) => [char, index]));

export function base58Encode(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = value * 256n + BigInt(byte);
  let encoded = '';
  while (value > 0n) {
    encoded = BASE58_ALPHABET[Number(value % 58n)] + encoded;
    value /= 58n;
  }
  // Each leading zero byte is written as a leading '1'.
  for (const byte of bytes) {
    if (byte !== 0) break;
    encoded = `1${encoded}`;
  }
  return encoded;
}

/** Null when the text holds a character outside the alphabet. */
export function base58Decode(text: string): Uint8Array | null {
  let value = 0n;
  for (const char of text) {
    const digit = BASE58_INDEX.get(char);
    if (digit === undefined) return null;
    value = value * 58n + BigInt(digit);
  }
  const body: number[] = [];
  while (value > 0n) {
    body.unshift(Number(value % 256n));
    value /= 256n;
  }
  let zeros = 0;
  while (zeros < text.length && text[zeros] === '1') zeros++;
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...body]);
}

function doubleSha256(bytes: Uint8Array): Uint8Array {
  return createHash('sha256').update(createHash('sha256').update(bytes).digest()).digest();
}

/** Base58 of the payload followed by the first 4 bytes of its double SHA-256. */
export function base58CheckEncode(payload: Uint8Array): string {
  return base58Encode(Uint8Array.from([...payload, ...doubleSha256(payload).subarray(0, 4)]));
}

/** The payload, or null when the text is not base58 or its checksum does not match. */
export function base58CheckDecode(text: string): Uint8Array | null {
  const bytes = base58Decode(text);
  if (!bytes || bytes.length < 5) return null;
  const payload = bytes.subarray(0, bytes.length - 4);
  const checksum = doubleSha256(payload).subarray(0, 4);
  return checksum.every((byte, index) => byte === bytes[bytes.length - 4 + index]) ? Uint8Array.from(payload) : null;
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

/** Tron's mainnet-and-testnet address prefix byte: its base58check form starts with `T`. */
export const TRON_ADDRESS_PREFIX = 0x41;

/** A Tron address: base58check of 0x41 followed by the 20-byte account id. */
export function tronAddress(bytes: Uint8Array): string {
  if (bytes.length !== 20) throw new RangeError('a Tron address is 20 bytes');
  return base58CheckEncode(Uint8Array.from([TRON_ADDRESS_PREFIX, ...bytes]));
}
