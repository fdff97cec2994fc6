import { createHash } from 'node:crypto';
import { pooledRandomHex } from './random-pool';

/** Kind prefixes of spec §2.1 and api-decisions §1. */
export const ID_PREFIXES = {
  account: 'acct',
  beneficiary: 'bene',
  quote: 'quote',
  transaction: 'txn',
  organization: 'org',
  referralInvite: 'refinv',
  webhookEndpoint: 'ep',
  request: 'req',
  fundingMethod: 'fm',
  authorization: 'loa',
  webhookMessage: 'msg',
  apiKey: 'key',
  event: 'evt',
  journal: 'jrnl',
  command: 'cmd',
  /** One message due to one endpoint (beyond the spec). */
  webhookDelivery: 'dlv',
  /** One attempt of a delivery, in the attempt log (beyond the spec). */
  webhookAttempt: 'att',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;
export type IdPrefix = (typeof ID_PREFIXES)[IdKind];

/** `<prefix>_<32 lowercase hex>`. */
export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${pooledRandomHex(16)}`;
}

const ID_SHAPE = /^[a-z]+_[0-9a-f]{32}$/;

export function isId(kind: IdKind, value: unknown): value is string {
  return typeof value === 'string' && ID_SHAPE.test(value) && value.startsWith(`${ID_PREFIXES[kind]}_`);
}

/** A request id as carried in `X-Request-Id`: `req_<hex>`. */
export function newRequestId(): string {
  return newId('request');
}

/**
 * The command id of a request that carries an `Idempotency-Key`: the same for every retry of
 * it by the same organization for the same `Service-On-Behalf-Of` target, so the owning
 * service recognizes a retry whatever became of the first attempt's reply.
 */
export function commandIdForIdempotencyKey(organizationId: string, onBehalfOf: string | null, idempotencyKey: string): string {
  const digest = createHash('sha256').update(JSON.stringify([organizationId, onBehalfOf, idempotencyKey])).digest('hex');
  return `${ID_PREFIXES.command}_${digest.slice(0, 32)}`;
}
