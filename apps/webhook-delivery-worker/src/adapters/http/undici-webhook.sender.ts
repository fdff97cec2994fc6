import type { LookupAddress, LookupOptions } from 'node:dns';
import type { IncomingHttpHeaders } from 'node:http';
import { addressProblem, literalAddress, webhookUrlProblem, type DestinationRules } from '@pfs/codecs';
import { annotateSpan, inSpan, traceHeaders, tracingEnabled, type HostResolver } from '@pfs/platform';
import { LRUCache } from 'lru-cache';
import { Agent, type Dispatcher } from 'undici';
import { WebhookSender, type WebhookRequest } from '../../application/ports/webhook-sender';
import type { AttemptResult } from '../../domain/attempt-result';

/** The answer is read up to this many bytes, kept for the attempt log, and the rest dropped. */
export const RESPONSE_LIMIT_BYTES = 4096;

export interface SenderOptions {
  rules: DestinationRules;
  resolve: HostResolver;
  /** The whole attempt: connect, send, answer (api-decisions §8: 15 s). */
  timeoutMs: number;
}

class DestinationRefusedError extends Error {
  readonly code = 'PFS_DESTINATION_REFUSED';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * Attempts over undici. The SSRF rules are applied where the connection is made: the host is
 * resolved once for the connection, every address it resolves to is checked, and the socket
 * connects to those checked addresses only (the lookup hands them to `connect`), so a DNS answer
 * that changes between check and connect (rebinding) cannot reach an internal address. A kept-
 * alive connection stays on its checked address. No redirects are followed (a 3xx is a failure).
 */
export class UndiciWebhookSender extends WebhookSender {
  private readonly agent: Agent;
  /**
   * The URL's form checked, and the URL parsed, once per URL, not per attempt: the rules are fixed
   * for the process and endpoints send many attempts to one URL (the addresses are still checked
   * per connection).
   */
  private readonly urls = new LRUCache<string, CheckedUrl>({ max: 10_000 });

  constructor(private readonly options: SenderOptions) {
    super();
    this.agent = new Agent({
      connect: { lookup: (hostname: string, lookupOptions: LookupOptions, callback: LookupCallback) => void this.guardedLookup(hostname, lookupOptions, callback), timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 4000,
    });
  }

  async send(webhook: WebhookRequest): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const checked = this.checkedUrl(webhook.url);
    if (checked.problem !== null) return failure(`destination refused: url ${checked.problem}`, elapsed());
    if (!tracingEnabled()) return this.post(checked, webhook, elapsed);
    // The HTTP call is a client span of its own; the receiver gets its `traceparent`.
    const url = new URL(webhook.url);
    const attributes = { 'http.request.method': 'POST', 'server.address': url.hostname, 'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)) };
    return inSpan('POST', { kind: 'client', requireParent: true, attributes }, async () => {
      const result = await this.post(checked, { ...webhook, headers: { ...webhook.headers, ...traceHeaders() } }, elapsed);
      annotateSpan(result.statusCode === null ? { 'error.type': result.timedOut ? 'timeout' : 'connection' } : { 'http.response.status_code': result.statusCode });
      return result;
    });
  }

  /**
   * One POST on undici's dispatcher API: the answer's status, headers and first 4 KB reach
   * `AttemptExchange` as they arrive. `request()` would wrap each attempt in an abort signal, a
   * body stream and an async iterator, which cost the worker more CPU than the rest of the
   * exchange (measured: 68–114 µs against 27–38 µs per POST to a local receiver).
   */
  private post(url: SendableUrl, webhook: WebhookRequest, elapsed: () => number): Promise<AttemptResult> {
    return new Promise<AttemptResult>((resolve) => {
      const exchange = new AttemptExchange(this.options.timeoutMs, elapsed, resolve);
      try {
        this.agent.dispatch({ origin: url.origin, path: url.path, method: 'POST', headers: webhook.headers, body: webhook.body }, exchange);
      } catch (error) {
        exchange.onResponseError(null, error as Error);
      }
    });
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  private checkedUrl(url: string): CheckedUrl {
    let checked = this.urls.get(url);
    if (!checked) {
      const problem = webhookUrlProblem(url, this.options.rules);
      if (problem !== null) checked = { problem };
      else {
        const parsed = new URL(url);
        checked = { problem: null, origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
      }
      this.urls.set(url, checked);
    }
    return checked;
  }

  private async guardedLookup(hostname: string, lookupOptions: LookupOptions, callback: LookupCallback): Promise<void> {
    try {
      const literal = literalAddress(hostname);
      const addresses = literal ? [{ address: literal, family: literal.includes(':') ? 6 : 4 }] : await this.options.resolve(hostname);
      for (const { address } of addresses) {
        const problem = addressProblem(address, this.options.rules);
        if (problem) throw new DestinationRefusedError(`destination refused: host ${hostname} ${problem.replace(/^must not point/, 'points')}`);
      }
      if (lookupOptions.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    } catch (error) {
      callback(error as NodeJS.ErrnoException, '');
    }
  }
}

function failure(error: string, durationMs: number, timedOut = false): AttemptResult {
  return { statusCode: null, error, durationMs, response: null, retryAfterMs: null, timedOut };
}

/** A URL the rules admit, parsed for the dispatcher; or why they refuse it. */
type CheckedUrl = { problem: string } | SendableUrl;
interface SendableUrl {
  problem: null;
  origin: string;
  path: string;
}

/** The attempt's own time limit, told apart from the errors undici raises. */
class AttemptTimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/** Ends the read once the first 4 KB are in: the rest of the answer is not wanted. */
class EnoughReadError extends Error {}

/**
 * What one attempt's exchange comes to, settled once: the answer (its first 4 KB as UTF-8, null
 * for an empty one), or the error that ended it. One timer bounds the whole attempt (connect,
 * send, answer); a connection undici has not yet started on is given up at once when it fires.
 */
class AttemptExchange implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  private statusCode: number | null = null;
  private headers: IncomingHttpHeaders = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private expired = false;
  private settled = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly timeoutMs: number,
    private readonly elapsed: () => number,
    private readonly settle: (result: AttemptResult) => void,
  ) {
    this.timer = setTimeout(() => this.expire(), timeoutMs);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.expired) controller.abort(new AttemptTimeoutError());
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    this.statusCode = statusCode;
    this.headers = headers;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size < RESPONSE_LIMIT_BYTES) return;
    this.answer();
    controller.abort(new EnoughReadError());
  }

  onResponseEnd(): void {
    this.answer();
  }

  onResponseError(_controller: Dispatcher.DispatchController | null, error: Error): void {
    if (this.settled) return;
    const timedOut = this.expired || isTimeout(error);
    this.done(failure(describe(error, this.timeoutMs), this.elapsed(), timedOut));
  }

  private expire(): void {
    this.expired = true;
    if (this.controller) this.controller.abort(new AttemptTimeoutError());
    else this.onResponseError(null, new AttemptTimeoutError());
  }

  private answer(): void {
    if (this.settled) return;
    const statusCode = this.statusCode ?? 0;
    const response = this.size ? Buffer.concat(this.chunks).subarray(0, RESPONSE_LIMIT_BYTES).toString('utf8') : null;
    const retryAfterMs = statusCode === 429 || statusCode === 503 ? retryAfter(this.headers['retry-after']) : null;
    this.done({ statusCode, error: null, durationMs: this.elapsed(), response, retryAfterMs, timedOut: false });
  }

  private done(result: AttemptResult): void {
    this.settled = true;
    clearTimeout(this.timer);
    this.settle(result);
  }
}

/** `Retry-After` as delta-seconds or an HTTP date, in ms from now; null when absent or unreadable. */
export function retryAfter(header: string | string[] | undefined, now = Date.now()): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function isTimeout(error: unknown): boolean {
  const e = error as { name?: string; code?: string };
  return e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT' || e.code === 'UND_ERR_CONNECT_TIMEOUT';
}

function describe(error: unknown, timeoutMs: number): string {
  const chain: unknown[] = [error, (error as { cause?: unknown })?.cause];
  for (const link of chain) {
    if (link instanceof DestinationRefusedError) return link.message;
  }
  if (isTimeout(error)) return `timed out after ${timeoutMs / 1000} s`;
  const e = error as { code?: string; message?: string };
  const code = e.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return code ? `connection failed (${code})` : `connection failed (${e.message ?? 'unknown error'})`;
}
