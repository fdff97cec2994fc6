import { createHmac } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/**
 * One `v1,<signature>` entry (spec 6.3, the Standard Webhooks scheme): HMAC-SHA256, keyed with
 * the secret's base64 part decoded, over `<id>.<timestamp>.<raw body>`, base64-encoded.
 */
export function webhookSignature(secret: string, id: string, timestamp: number, body: string): string {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('a webhook secret starts with whsec_');
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The headers of one attempt, signed when it is sent: `hook-*` (spec 6.1) and the same values as `webhook-*` (api-decisions §8). */
export function webhookSignatureHeaders(secrets: readonly string[], id: string, timestamp: number, body: string): Record<string, string> {
  if (!secrets.length) throw new Error('a delivery is signed with at least one secret');
  const signature = secrets.map((secret) => webhookSignature(secret, id, timestamp, body)).join(' ');
  return {
    'hook-id': id,
    'hook-timestamp': String(timestamp),
    'hook-signature': signature,
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature,
  };
}
