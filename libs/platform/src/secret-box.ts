import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

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
    const iv = randomBytes(12);
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
