/**
 * Seals a signing secret for the trip to the delivery worker over Redis (AES-256-GCM with
 * WEBHOOK_SECRET_KEY, which the worker shares): no secret crosses a queue in plain text.
 */
export abstract class SecretSealer {
  abstract seal(secret: string): string;
}
