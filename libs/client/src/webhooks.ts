import { Webhook, WebhookVerificationError } from 'standardwebhooks';

/** What every delivery's body is: the event's type, when it happened, and its data. */
export interface WebhookEvent<T = Record<string, unknown>> {
  type: string;
  timestamp: string;
  data: T;
}

export { WebhookVerificationError };

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

/**
 * Verifies a delivery as the Standard Webhooks scheme signs it (the `webhook-id`,
 * `webhook-timestamp` and `webhook-signature` headers, or their `hook-*` twins) with the
 * endpoint's `whsec_…` secret, rejecting a timestamp more than 5 minutes away, and returns the
 * parsed event. Pass the raw body exactly as received, before any JSON parsing.
 * Throws WebhookVerificationError when the delivery is not authentic.
 */
export function verifyWebhook<T = Record<string, unknown>>(secret: string, rawBody: string | Buffer, headers: HeaderBag): WebhookEvent<T> {
  const read = (name: string): string | undefined => {
    if (headers instanceof Headers) return headers.get(name) ?? undefined;
    const value = headers[name] ?? headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  };
  const signed: Record<string, string> = {};
  for (const part of ['id', 'timestamp', 'signature']) {
    const value = read(`webhook-${part}`) ?? read(`hook-${part}`);
    if (value === undefined) throw new WebhookVerificationError(`missing webhook-${part} (or hook-${part}) header`);
    signed[`webhook-${part}`] = value;
  }
  const body = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
  return new Webhook(secret).verify(body, signed) as WebhookEvent<T>;
}
