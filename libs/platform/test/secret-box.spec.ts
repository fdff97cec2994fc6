import { beneficiaryDataBox, idempotencyReplayBox, SecretBox, SecretBoxRing } from '../src';

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

describe('SecretBoxRing', () => {
  const oldRing = SecretBoxRing.derive(['old-key'], 'replays');
  const rotated = SecretBoxRing.derive(['new-key', 'old-key'], 'replays');

  it('seals with its first key and opens what any of its keys sealed', () => {
    const sealedBefore = oldRing.seal('sk_test_0123');
    const sealedAfter = rotated.seal('sk_test_0123');
    expect(rotated.open(sealedBefore)).toBe('sk_test_0123');
    expect(rotated.open(sealedAfter)).toBe('sk_test_0123');
    expect(SecretBoxRing.derive(['new-key'], 'replays').open(sealedAfter)).toBe('sk_test_0123');
    // The old key alone cannot open what the rotated ring sealed, nor can a ring without it.
    expect(() => oldRing.open(sealedAfter)).toThrow();
    expect(() => SecretBoxRing.derive(['new-key'], 'replays').open(sealedBefore)).toThrow();
    expect(() => rotated.open('plain text')).toThrow('not a sealed value');
  });

  it('fingerprints with its first key and recognizes the fingerprints of every key', () => {
    const before = oldRing.fingerprint('request');
    expect(rotated.fingerprint('request')).not.toBe(before);
    expect(rotated.recognizes('request', before)).toBe(true);
    expect(rotated.recognizes('request', rotated.fingerprint('request'))).toBe(true);
    expect(rotated.recognizes('other request', before)).toBe(false);
    expect(SecretBoxRing.derive(['new-key'], 'replays').recognizes('request', before)).toBe(false);
  });

  it('needs a key', () => {
    expect(() => SecretBoxRing.derive([], 'replays')).toThrow('a key ring needs at least one key');
  });
});

describe('idempotencyReplayBox', () => {
  const sandbox = { serviceEnv: 'sandbox', apiKeyPepper: 'pepper' };
  const production = { serviceEnv: 'production', apiKeyPepper: 'pepper' };

  it('uses IDEMPOTENCY_REPLAY_KEY, newest key first, else (sandbox only) a key derived from the pepper', () => {
    const sealed = idempotencyReplayBox(production, { IDEMPOTENCY_REPLAY_KEY: 'k1' }).seal('body');
    const rotated = idempotencyReplayBox(production, { IDEMPOTENCY_REPLAY_KEY: 'k2, k1' });
    expect(rotated.open(sealed)).toBe('body');
    expect(() => idempotencyReplayBox(production, { IDEMPOTENCY_REPLAY_KEY: 'k1' }).open(rotated.seal('body'))).toThrow();
    expect(() => idempotencyReplayBox(sandbox, {}).open(sealed)).toThrow();
    expect(idempotencyReplayBox(sandbox, {}).open(idempotencyReplayBox(sandbox, {}).seal('x'))).toBe('x');
    // Its own purpose: the pepper-derived boxes of other uses do not open it.
    expect(() => beneficiaryDataBox(sandbox, {}).open(idempotencyReplayBox(sandbox, {}).seal('x'))).toThrow();
  });

  it('refuses to start in production without it, and refuses an empty key in the list', () => {
    expect(() => idempotencyReplayBox(production, {})).toThrow('IDEMPOTENCY_REPLAY_KEY is required in production');
    expect(() => idempotencyReplayBox(production, { IDEMPOTENCY_REPLAY_KEY: 'k2,,k1' })).toThrow('comma-separated list of non-empty keys');
  });
});
