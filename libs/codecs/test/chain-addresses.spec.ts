import { createHash } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { base58CheckDecode, base58CheckEncode, base58Decode, base58Encode, evmAddress, isValidAddress, solanaAddress, toChecksumAddress, tronAddress } from '../src';

/** Independent of the code under test: base58 decoding by BigInt arithmetic. */
function decodeBase58(text: string): Buffer {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let value = 0n;
  for (const char of text) {
    const digit = alphabet.indexOf(char);
    if (digit < 0) throw new Error(`not base58: ${char}`);
    value = value * 58n + BigInt(digit);
  }
  const hex = value === 0n ? '' : value.toString(16);
  const body = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  const zeros = /^1*/.exec(text)?.[0].length ?? 0;
  return Buffer.concat([Buffer.alloc(zeros), body]);
}

/** Independent EIP-55 check: each letter's case follows the nibble of keccak-256 of the lower-case hex. */
function hasValidEip55Checksum(address: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return false;
  const hex = address.slice(2);
  const hash = Buffer.from(keccak_256(Buffer.from(hex.toLowerCase(), 'ascii'))).toString('hex');
  return [...hex].every((char, index) => {
    if (/[0-9]/.test(char)) return true;
    return parseInt(hash[index], 16) >= 8 ? char === char.toUpperCase() : char === char.toLowerCase();
  });
}

function sha256(bytes: Buffer): Buffer {
  return createHash('sha256').update(bytes).digest();
}

const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'));

describe('address codecs', () => {
  describe('EIP-55 (EVM chains)', () => {
    // The test vectors published with EIP-55.
    it.each([
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ])('checksums %s as EIP-55 publishes it', (vector) => {
      expect(toChecksumAddress(vector.toLowerCase())).toBe(vector);
      expect(toChecksumAddress(vector.toUpperCase().replace('0X', '0x'))).toBe(vector);
      expect(hasValidEip55Checksum(vector)).toBe(true);
    });

    it('makes a 0x + 40 hex address from 20 bytes whose checksum verifies independently', () => {
      for (let round = 0; round < 50; round++) {
        const raw = sha256(Buffer.from(`evm-${round}`)).subarray(0, 20);
        const address = evmAddress(raw);
        expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
        expect(address.slice(2).toLowerCase()).toBe(raw.toString('hex'));
        expect(hasValidEip55Checksum(address)).toBe(true);
      }
    });

    it('refuses to make an address of 19 bytes', () => expect(() => evmAddress(new Uint8Array(19))).toThrow(RangeError));

    it('refuses to checksum a hex string that is not 20 bytes', () => expect(() => toChecksumAddress('0x1234')).toThrow(RangeError));
  });

  describe('base58 and base58check', () => {
    // Bitcoin Core's published base58 vectors (src/test/data/base58_encode_decode.json): hex → text.
    it.each([
      ['', ''],
      ['61', '2g'],
      ['626262', 'a3gV'],
      ['636363', 'aPEr'],
      ['73696d706c792061206c6f6e6720737472696e67', '2cFupjhnEsSn59qHXstmK2ffpLv2'],
      ['00eb15231dfceb60925886b67d065299925915aeb172c06647', '1NS17iag9jJgTHD1VXjvLCEnZuQ3rJDE9L'],
      ['516b6fcd0f', 'ABnLTmg'],
      ['bf4f89001e670274dd', '3SEo3LWLoPntC'],
      ['572e4794', '3EFU7m'],
      ['ecac89cad93923c02321', 'EJDM8drfXA6uyA'],
      ['10c8511e', 'Rt5zm'],
      ['00000000000000000000', '1111111111'],
      ['000111d38e5fc9071ffcd20b4a763cc9ae4f252bb4e48fd66a835e252ada93ff480d6dd43dc62a641155a5', '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'],
      ['271f359e', 'zzzzy'],
      ['271f359f', 'zzzzz'],
      ['271f35a0', '211111'],
    ])('Bitcoin vector %s ↔ %s', (hex, text) => {
      expect(base58Encode(bytes(hex))).toBe(text);
      expect(Buffer.from(base58Decode(text) ?? [0xff]).toString('hex')).toBe(hex);
    });

    describe('a published base58check address: the genesis block coinbase, version 0x00 and its key hash', () => {
      const payload = '0062e907b15cbf27d5425399ebf6f0fb50ebb88f18';
      it('decodes it', () => expect(Buffer.from(base58CheckDecode('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa') ?? []).toString('hex')).toBe(payload));
      it('encodes it', () => expect(base58CheckEncode(bytes(payload))).toBe('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'));
      it('refuses it with its last character changed', () => expect(base58CheckDecode('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb')).toBeNull());
    });

    it.each([
      ['"Hello World!"', Buffer.from('Hello World!'), '2NEpo7TZRRrLZSi2U'],
      ['32 zero bytes', new Uint8Array(32), '11111111111111111111111111111111'],
      ['two leading zero bytes', bytes('0000287fb4cd'), '11233QC4'],
      ['no bytes', new Uint8Array(), ''],
    ])('encodes the known vector of %s, leading zero bytes as 1s', (_case, input, text) => expect(base58Encode(input)).toBe(text));

    it.each(['', '00', '0000ff', '61', 'ffffffffffffffffff', '00010203040506070809'])('decodes what it encodes: %j', (hex) => {
      expect(Buffer.from(base58Decode(base58Encode(bytes(hex))) ?? []).toString('hex')).toBe(hex);
    });

    it('rejects characters outside the alphabet', () => expect(base58Decode('0OIl')).toBeNull());

    it('appends the first 4 bytes of the double SHA-256, and refuses a corrupted string', () => {
      const payload = bytes('41a614f803b6fd780986a42c78ec9c7f77e6ded13c');
      const encoded = base58CheckEncode(payload);
      const decoded = decodeBase58(encoded);
      expect(decoded.subarray(0, 21)).toEqual(Buffer.from(payload));
      expect(decoded.subarray(21)).toEqual(sha256(sha256(Buffer.from(payload))).subarray(0, 4));
      expect(base58CheckDecode(encoded)).toEqual(payload);
      const corrupted = `${encoded.slice(0, 10)}${encoded[10] === 'z' ? 'y' : 'z'}${encoded.slice(11)}`;
      expect(base58CheckDecode(corrupted)).toBeNull();
    });
  });

  describe('Tron', () => {
    it('matches the address of a known account', () => {
      // The USDT (TRC-20) contract on Tron mainnet: 41a614f8… in hex, TR7NHq… in base58check.
      expect(tronAddress(bytes('a614f803b6fd780986a42c78ec9c7f77e6ded13c'))).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
      expect(Buffer.from(base58CheckDecode('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t') ?? []).toString('hex')).toBe('41a614f803b6fd780986a42c78ec9c7f77e6ded13c');
    });

    it('is base58check of 0x41 and the 20 bytes: 34 characters starting with T', () => {
      for (let round = 0; round < 50; round++) {
        const raw = sha256(Buffer.from(`tron-${round}`)).subarray(0, 20);
        const address = tronAddress(raw);
        expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
        const decoded = decodeBase58(address);
        expect(decoded).toHaveLength(25);
        expect(decoded[0]).toBe(0x41);
        expect(decoded.subarray(1, 21)).toEqual(raw);
        expect(decoded.subarray(21)).toEqual(sha256(sha256(decoded.subarray(0, 21))).subarray(0, 4));
      }
    });
  });

  describe('Solana', () => {
    it('is the base58 form of the 32-byte key', () => {
      for (let round = 0; round < 50; round++) {
        const raw = sha256(Buffer.from(`solana-${round}`));
        const address = solanaAddress(raw);
        expect(address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
        expect(decodeBase58(address)).toEqual(raw);
      }
    });

    it('is 32 1s for the all-zero key', () => expect(solanaAddress(new Uint8Array(32))).toBe('11111111111111111111111111111111'));

    it('refuses a key of 31 bytes', () => expect(() => solanaAddress(new Uint8Array(31))).toThrow(RangeError));
  });
});

describe('isValidAddress', () => {
  const vector = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

  describe('EVM: 0x + 40 hex, the EIP-55 checksum enforced when letters are of mixed case', () => {
    it.each([
      ['checksummed', vector],
      ['lower case', vector.toLowerCase()],
      ['upper case', `0x${vector.slice(2).toUpperCase()}`],
    ])('accepts it %s', (_case, address) => expect(isValidAddress('EVM', address)).toBe(true));

    it.each([
      ['mixed case with a wrong checksum', vector.replace('aA', 'Aa')],
      ['39 hex digits', vector.slice(0, 41)],
      ['a 0X prefix', vector.replace('0x', '0X')],
    ])('refuses %s', (_case, address) => expect(isValidAddress('EVM', address)).toBe(false));
  });

  describe('Solana: base58 of exactly 32 bytes', () => {
    it.each([
      ['the all-zero key', '11111111111111111111111111111111'],
      ['a key', solanaAddress(Uint8Array.from({ length: 32 }, (_, index) => index + 1))],
    ])('accepts %s', (_case, address) => expect(isValidAddress('SOLANA', address)).toBe(true));

    it.each([
      ['31 bytes', '1111111111111111111111111111111'],
      ['characters outside base58', '0OIl1111111111111111111111111111'],
    ])('refuses %s', (_case, address) => expect(isValidAddress('SOLANA', address)).toBe(false));
  });

  describe('Tron: base58check of 0x41 and 20 bytes', () => {
    it('accepts a known account', () => expect(isValidAddress('TRON', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true));

    it.each([
      ['a broken checksum', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u'],
      // Valid base58check, but a Bitcoin (0x00) prefix rather than Tron's 0x41.
      ['a Bitcoin prefix', base58CheckEncode(new Uint8Array(21))],
    ])('refuses %s', (_case, address) => expect(isValidAddress('TRON', address)).toBe(false));
  });
});
