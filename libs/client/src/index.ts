export { createPfsClient, ok, paginate, type PfsApi, type PfsClient, type PfsClientOptions } from './client';
export { PfsApiError, type ErrorEnvelope } from './errors';
export { verifyWebhook, WebhookVerificationError, type WebhookEvent } from './webhooks';
export type { components, operations, paths } from './generated/schema';
