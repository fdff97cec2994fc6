import { randomBytes } from 'node:crypto';

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
} as const;

export type IdKind = keyof typeof ID_PREFIXES;
export type IdPrefix = (typeof ID_PREFIXES)[IdKind];

// Random bytes are drawn in blocks: one syscall per 256 ids instead of one per id (an id is
// minted for every request and every command).
const POOL_SIZE = 16 * 256;
let pool = randomBytes(POOL_SIZE);
let offset = 0;

function random16Hex(): string {
  if (offset + 16 > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + 16);
  offset += 16;
  return hex;
}

/** `<prefix>_<32 lowercase hex>`. */
export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${random16Hex()}`;
}

const ID_SHAPE = /^[a-z]+_[0-9a-f]{32}$/;

export function isId(kind: IdKind, value: unknown): value is string {
  return typeof value === 'string' && ID_SHAPE.test(value) && value.startsWith(`${ID_PREFIXES[kind]}_`);
}

/** A request id as carried in `X-Request-Id`: `req_<hex>`. */
export function newRequestId(): string {
  return newId('request');
}
