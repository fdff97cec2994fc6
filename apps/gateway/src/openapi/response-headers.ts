import type { HeadersObject } from '@nestjs/swagger';

/** Response headers as documented on every operation. */
export const REQUEST_ID_RESPONSE_HEADER: HeadersObject = {
  'X-Request-Id': {
    description: 'Unique id of this request (`req_` + 32 hex); error bodies repeat it as `requestId`.',
    required: true,
    schema: { type: 'string', pattern: '^req_[0-9a-f]{32}$' },
  },
};

/** On every response, whatever the route or status (src/http/security-headers.ts). */
export const EVERY_RESPONSE_HEADERS: HeadersObject = {
  ...REQUEST_ID_RESPONSE_HEADER,
  'Cache-Control': {
    description: '`no-store`: no answer may be kept by a browser or proxy (some carry API keys or balances).',
    required: true,
    schema: { type: 'string', enum: ['no-store'] },
  },
  'X-Content-Type-Options': {
    description: '`nosniff`: the declared Content-Type is the only one.',
    required: true,
    schema: { type: 'string', enum: ['nosniff'] },
  },
};

export const LIST_RESPONSE_HEADERS: HeadersObject = {
  ...REQUEST_ID_RESPONSE_HEADER,
  'X-Page-Size': {
    description: 'Number of items in `data`.',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-Next-Cursor': {
    description: 'Cursor of the next page (same value as `nextCursor`); absent on the last page.',
    required: false,
    schema: { type: 'string' },
  },
};

/** On every response to an authenticated request (IETF draft-ietf-httpapi-ratelimit-headers). */
export const RATE_LIMIT_RESPONSE_HEADERS: HeadersObject = {
  'RateLimit-Policy': {
    description: 'The API key’s quota: `"default";q=<requests>;w=<window seconds>`, e.g. `"default";q=1000;w=60`.',
    schema: { type: 'string', example: '"default";q=1000;w=60' },
  },
  RateLimit: {
    description: 'What is left of the current window: `"default";r=<remaining requests>;t=<seconds until the window resets>`.',
    schema: { type: 'string', example: '"default";r=998;t=57' },
  },
};

export const RETRY_AFTER_RESPONSE_HEADER: HeadersObject = {
  'Retry-After': {
    description: 'Seconds to wait before the budget is back.',
    required: true,
    schema: { type: 'integer', minimum: 1, example: 23 },
  },
};

/** On responses of POST, PUT and PATCH that repeat a stored response. */
export const IDEMPOTENT_REPLAY_RESPONSE_HEADERS: HeadersObject = {
  'Idempotent-Replayed': {
    description: '`true` when this is the stored response of an earlier request with the same `Idempotency-Key`; absent otherwise.',
    required: false,
    schema: { type: 'string', enum: ['true'] },
  },
  'Original-Request': {
    description: 'On a replay: the request id of the request that produced the stored response.',
    required: false,
    schema: { type: 'string', pattern: '^req_[0-9a-f]{32}$' },
  },
};
