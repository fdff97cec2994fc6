import { createCipheriv, createDecipheriv, createHmac } from 'node:crypto';
import { pooledRandomBytes } from '@pfs/contracts';

const VERSION = 'v1';

/**
 * Authenticated encryption (AES-256-GCM) for what must be stored but never readable at rest:
 * command results that carry API keys or account numbers, later webhook secrets. A sealed
 * value is `v1.<iv>.<tag>.<ciphertext>` (base64url); opening a tampered one throws.
 */
export class SecretBox {
  /** A second key for fingerprints, so no value is ever both encrypted and MACed under one key. */
  private readonly fingerprintKey: Buffer;

  private constructor(private readonly key: Buffer) {
    this.fingerprintKey = createHmac('sha256', key).update('pfs secret box: fingerprints').digest();
  }

  /** A box whose key is derived from a secret for one purpose, so no two uses share a key. */
  static derive(secret: string, purpose: string): SecretBox {
    return new SecretBox(createHmac('sha256', secret).update(`pfs secret box: ${purpose}`).digest());
  }

  seal(plain: string): string {
    const iv = pooledRandomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
  }

  /**
   * A keyed digest (HMAC-SHA256, base64url) to find equal values without storing them: unlike a
   * plain hash, it cannot be reversed by hashing every possible account number.
   */
  fingerprint(plain: string): string {
    return createHmac('sha256', this.fingerprintKey).update(plain, 'utf8').digest('base64url');
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || iv === undefined || tag === undefined || body === undefined) throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/**
 * One purpose's boxes while its key is rotated: seals and fingerprints with the first key, opens
 * what any of them sealed and recognizes the fingerprints any of them made. To rotate across
 * replicas: append the new key everywhere, then put it first, then drop the old one once nothing
 * it sealed is still kept.
 */
export class SecretBoxRing {
  private constructor(private readonly boxes: readonly [SecretBox, ...SecretBox[]]) {}

  /** `keys` newest first, each derived for `purpose` as SecretBox.derive does. */
  static derive(keys: readonly string[], purpose: string): SecretBoxRing {
    const [first, ...rest] = keys.map((key) => SecretBox.derive(key, purpose));
    if (!first) throw new Error('a key ring needs at least one key');
    return new SecretBoxRing([first, ...rest]);
  }

  seal(plain: string): string {
    return this.boxes[0].seal(plain);
  }

  /** Throws, as SecretBox.open, when no key of the ring opens it. */
  open(sealed: string): string {
    let failure: unknown;
    for (const box of this.boxes) {
      try {
        return box.open(sealed);
      } catch (error) {
        failure ??= error;
      }
    }
    throw failure;
  }

  fingerprint(plain: string): string {
    return this.boxes[0].fingerprint(plain);
  }

  /** Whether `print` is the fingerprint of `plain` under any key of the ring. */
  recognizes(plain: string, print: string): boolean {
    return this.boxes.some((box) => box.fingerprint(plain) === print);
  }
}

/**
 * The box that seals webhook signing secrets (at rest in the webhook-delivery service, and on
 * their way to the delivery worker): WEBHOOK_SECRET_KEY, required in production; in the sandbox,
 * a key derived from the pepper for this purpose alone.
 */
export function webhookSecretBox(config: { serviceEnv: string; apiKeyPepper: string }, env: NodeJS.ProcessEnv = process.env): SecretBox {
  const key = env.WEBHOOK_SECRET_KEY;
  if (key) return SecretBox.derive(key, 'webhook signing secrets');
  if (config.serviceEnv === 'production') throw new Error('WEBHOOK_SECRET_KEY is required in production');
  return SecretBox.derive(config.apiKeyPepper, 'webhook signing secrets');
}

/**
 * The box that seals beneficiaries' account numbers, IBANs and tax ids at rest:
 * BENEFICIARY_DATA_KEY, required in production; in the sandbox, a key derived from the pepper
 * for this purpose alone.
 */
export function beneficiaryDataBox(config: { serviceEnv: string; apiKeyPepper: string }, env: NodeJS.ProcessEnv = process.env): SecretBox {
  const key = env.BENEFICIARY_DATA_KEY;
  if (key) return SecretBox.derive(key, 'beneficiary data');
  if (config.serviceEnv === 'production') throw new Error('BENEFICIARY_DATA_KEY is required in production');
  return SecretBox.derive(config.apiKeyPepper, 'beneficiary data');
}

/**
 * The ring that seals the gateway's stored idempotent responses (new API keys, webhook secrets,
 * account numbers) and keys their request fingerprints: IDEMPOTENCY_REPLAY_KEY, a comma-separated
 * ring, newest first (a record lives at most IDEMPOTENCY_TTL_SECONDS, so an old key can be dropped
 * that long after a new one was put first); required in production; in the sandbox, a key derived
 * from the pepper for this purpose alone.
 */
export function idempotencyReplayBox(config: { serviceEnv: string; apiKeyPepper: string }, env: NodeJS.ProcessEnv = process.env): SecretBoxRing {
  const purpose = 'idempotency replays';
  const value = env.IDEMPOTENCY_REPLAY_KEY;
  if (value) {
    const keys = value.split(',').map((key) => key.trim());
    if (keys.some((key) => key === '')) throw new Error('IDEMPOTENCY_REPLAY_KEY must be a comma-separated list of non-empty keys, newest first');
    return SecretBoxRing.derive(keys, purpose);
  }
  if (config.serviceEnv === 'production') throw new Error('IDEMPOTENCY_REPLAY_KEY is required in production');
  return SecretBoxRing.derive([config.apiKeyPepper], purpose);
}
