import type { HeadersObject } from '@nestjs/swagger';

/** Response headers as documented on every operation. */
export const REQUEST_ID_RESPONSE_HEADER: HeadersObject = {
  'X-Request-Id': {
    description: 'Unique id of this request (`req_` + 32 hex); error bodies repeat it as `requestId`.',
    schema: { type: 'string', pattern: '^req_[0-9a-f]{32}$' },
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
