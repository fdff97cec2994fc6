import { randomUUID } from 'node:crypto';
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { PfsApiError } from './errors';
import type { paths } from './generated/schema';

export interface PfsClientOptions {
  /** The deployment's base URL, e.g. `https://api.example.com` or `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** `sk_test_…` (sandbox) or `sk_live_…` (production). */
  apiKey: string;
  /** Every call acts for this client organization (`Service-On-Behalf-Of`). */
  onBehalfOf?: string;
  /**
   * Attempts per call, the first included (default 4). A call is tried again on 429 (after
   * `Retry-After`), 503, a 409 `idempotency_request_in_flight` and a lost connection; a POST,
   * PUT or PATCH carries the same `Idempotency-Key` on every attempt, so it takes effect once.
   */
  maxAttempts?: number;
  /** First backoff in ms (default 250), doubled per attempt up to `maxBackoffMs` (default 5000). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Another fetch (a test double, a proxy agent); the global one by default. */
  fetch?: typeof globalThis.fetch;
  /** Waits between attempts; replaceable so that tests need not sleep. */
  sleep?: (ms: number) => Promise<void>;
}

/** The typed client of the whole API: every path, parameter, body and answer from the OpenAPI document. */
export type PfsApi = Client<paths>;

export interface PfsClient {
  /**
   * `api.GET('/v1/accounts/{accountId}', { params: { path: { accountId } } })` and so on: the
   * openapi-fetch client. A non-2xx answer rejects with a PfsApiError; wrap a call in `ok()` to
   * get its body typed and defined.
   */
  readonly api: PfsApi;
  /** The same client acting for a client organization (`Service-On-Behalf-Of`). */
  onBehalfOf(organizationId: string): PfsClient;
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH']);

/** Creates a client; cheap, so one per API key (and per client organization acted for) is fine. */
export function createPfsClient(options: PfsClientOptions): PfsClient {
  const fetchWithRetries = retryingFetch(options);
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: {
      Authorization: `Bearer ${options.apiKey}`,
      ...(options.onBehalfOf ? { 'Service-On-Behalf-Of': options.onBehalfOf } : {}),
    },
    fetch: fetchWithRetries,
  });
  api.use(throwOnError);
  return {
    api,
    onBehalfOf: (organizationId) => createPfsClient({ ...options, onBehalfOf: organizationId }),
  };
}

/** A non-2xx answer rejects the call with the envelope's code, message and request id. */
const throwOnError: Middleware = {
  async onResponse({ response }) {
    if (!response.ok) throw await PfsApiError.fromResponse(response);
    return undefined;
  },
};

/**
 * The body of a call that succeeded. openapi-fetch types `data` as possibly absent (it is, on an
 * error answer); with the client's middleware an error answer has already rejected.
 */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, response } = await call;
  if (data === undefined && response.status !== 204) throw new PfsApiError(response.status, 'unexpected_response', `HTTP ${response.status} without a body`, undefined, response.headers);
  return data as T;
}

/**
 * Every item of a list, page after page: `page(cursor)` fetches one page (pass the cursor as the
 * `cursor` query parameter), and the walk follows each answer's `X-Next-Cursor` until the last.
 */
export async function* paginate<T>(page: (cursor: string | undefined) => Promise<{ data?: { data: T[] }; response: Response }>): AsyncGenerator<T> {
  let cursor: string | undefined;
  do {
    const { data, response } = await page(cursor);
    for (const item of data?.data ?? []) yield item;
    cursor = response.headers.get('x-next-cursor') ?? undefined;
  } while (cursor);
}

function retryingFetch(options: PfsClientOptions): (request: Request) => Promise<Response> {
  const send = options.fetch ?? globalThis.fetch;
  const maxAttempts = Math.max(1, options.maxAttempts ?? 4);
  const backoff = options.backoffMs ?? 250;
  const maxBackoff = options.maxBackoffMs ?? 5000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return async (request: Request) => {
    // One key for the call, reused by every attempt: a retry of a mutation is then a replay, so
    // every call is safe to repeat.
    if (MUTATING.has(request.method) && !request.headers.has('idempotency-key')) request.headers.set('Idempotency-Key', randomUUID());
    for (let attempt = 1; ; attempt += 1) {
      const wait = Math.min(maxBackoff, backoff * 2 ** (attempt - 1));
      let response: Response;
      try {
        response = await send(request.clone());
      } catch (error) {
        // The connection went before an answer: try again, with the same key.
        if (attempt >= maxAttempts) throw error;
        await sleep(wait);
        continue;
      }
      if (attempt >= maxAttempts || !(await retryable(response))) return response;
      await sleep(retryAfterMs(response) ?? wait);
    }
  };
}

async function retryable(response: Response): Promise<boolean> {
  if (response.status === 429 || response.status === 503) return true;
  if (response.status !== 409) return false;
  // The first request with this key is still running: its answer comes once it settles.
  const body = (await response.clone().json().catch(() => undefined)) as { error?: { code?: string } } | undefined;
  return body?.error?.code === 'idempotency_request_in_flight';
}

function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
