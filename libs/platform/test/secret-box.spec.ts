import { beneficiaryDataBox, SecretBox } from '../src';

describe('SecretBox', () => {
  const box = SecretBox.derive('pepper', 'command log');

  it('opens what it sealed, and seals the same text differently each time', () => {
    const text = JSON.stringify({ apiKey: 'sk_test_0123', accountNumber: '000123456789' });
    const first = box.seal(text);
    const second = box.seal(text);
    expect(first).not.toEqual(second);
    expect(first).not.toContain('sk_test_0123');
    expect(first).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(box.open(first)).toBe(text);
    expect(box.open(second)).toBe(text);
  });

  it('refuses a tampered value and a value sealed for another purpose or secret', () => {
    const sealed = box.seal('secret');
    const [version, iv, tag, body] = sealed.split('.');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] ^= 1;
    expect(() => box.open([version, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => SecretBox.derive('pepper', 'webhook secrets').open(sealed)).toThrow();
    expect(() => SecretBox.derive('other', 'command log').open(sealed)).toThrow();
    expect(() => box.open('plain text')).toThrow('not a sealed value');
  });

  it('matches the AES-256-GCM reference vector (NIST SP 800-38D, test case 13, empty plaintext)', () => {
    // Key of 32 zero bytes, IV of 12 zero bytes, no plaintext: tag 530f8afbc74536b9a963b4f1c4cb738b.
    const zeroKeyBox = Reflect.construct(SecretBox, [Buffer.alloc(32)]) as SecretBox;
    const zeroIv = Buffer.alloc(12).toString('base64url');
    const tag = Buffer.from('530f8afbc74536b9a963b4f1c4cb738b', 'hex').toString('base64url');
    expect(zeroKeyBox.open(`v1.${zeroIv}.${tag}.`)).toBe('');
  });

  it('fingerprints equal values equally, per key, without revealing them', () => {
    const print = box.fingerprint('DE89370400440532013000');
    expect(box.fingerprint('DE89370400440532013000')).toBe(print);
    expect(box.fingerprint('DE89370400440532013001')).not.toBe(print);
    expect(SecretBox.derive('pepper', 'webhook secrets').fingerprint('DE89370400440532013000')).not.toBe(print);
    expect(print).toMatch(/^[\w-]{43}$/);
    expect(print).not.toContain('0532013000');
  });
});

describe('beneficiaryDataBox', () => {
  const sandbox = { serviceEnv: 'sandbox', apiKeyPepper: 'pepper' };

  it('uses BENEFICIARY_DATA_KEY when set, else (sandbox only) a key derived from the pepper', () => {
    const sealed = beneficiaryDataBox(sandbox, { BENEFICIARY_DATA_KEY: 'data-key' }).seal('000123456789');
    expect(beneficiaryDataBox({ serviceEnv: 'production', apiKeyPepper: 'other' }, { BENEFICIARY_DATA_KEY: 'data-key' }).open(sealed)).toBe('000123456789');
    expect(() => beneficiaryDataBox(sandbox, {}).open(sealed)).toThrow();
    expect(beneficiaryDataBox(sandbox, {}).open(beneficiaryDataBox(sandbox, {}).seal('x'))).toBe('x');
  });

  it('refuses to start in production without BENEFICIARY_DATA_KEY', () => {
    expect(() => beneficiaryDataBox({ serviceEnv: 'production', apiKeyPepper: 'pepper' }, {})).toThrow('BENEFICIARY_DATA_KEY is required in production');
  });
});
