import { expectDocumented } from './openapi-response-validator';

export const REQUEST_ID = /^req_[0-9a-f]{32}$/;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json<T = Record<string, unknown>>(): T;
  /** From sending to the last byte of the body. */
  durationMs: number;
}

export interface ErrorBody {
  code: string;
  message: string;
  requestId: string;
}

export interface RequestOptions {
  method?: string;
  /** Sent as `Authorization: Bearer <key>`. */
  key?: string;
  headers?: Record<string, string>;
  /** A string or bytes are sent as they are; anything else as JSON. */
  body?: unknown;
  /** How long to wait for the whole answer (default 75 s, past the shared stack's command timeout: a slow answer fails the test by its status, not by an abort), e.g. for a burst of hundreds of requests in flight. */
  timeoutMs?: number;
}

/**
 * One request over a real socket (not app.inject), so Fastify parses it as it would in
 * production. The response must match the gateway's own OpenAPI document (status, body,
 * headers), or the call fails: see openapi-response-validator.ts.
 */
export async function send(baseUrl: string, path: string, options: RequestOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | Uint8Array | undefined;
  if (typeof options.body === 'string' || options.body instanceof Uint8Array) body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const method = options.method ?? 'GET';
  const started = Date.now();
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body, signal: AbortSignal.timeout(options.timeoutMs ?? 75000) });
  const text = await response.text();
  const durationMs = Date.now() - started;
  // Every response any test receives is held to the document the gateway serves.
  await expectDocumented(baseUrl, { method, url: path, status: response.status, headers: response.headers, text });
  return { status: response.status, headers: response.headers, text, json: <T>() => JSON.parse(text) as T, durationMs };
}

/**
 * Asserts the error envelope: the status, the code, `requestId` equal to the X-Request-Id
 * header, and nothing in the body that looks like a stack trace.
 */
export function expectError(answer: Answer, status: number, code: string): ErrorBody {
  expect({ status: answer.status, text: answer.text }).toEqual({ status, text: expect.any(String) });
  const requestId = answer.headers.get('x-request-id');
  expect(requestId).toMatch(REQUEST_ID);
  const body = answer.json<{ error: ErrorBody }>();
  expect(body).toEqual({ error: { code, message: expect.any(String), requestId } });
  expect(answer.text).not.toMatch(/\n\s+at |\.[jt]s:\d+|node_modules/);
  return body.error;
}

/** Runs `count` tasks with at most `concurrency` in flight, keeping their order in the result. */
export async function inPool<T>(count: number, concurrency: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
