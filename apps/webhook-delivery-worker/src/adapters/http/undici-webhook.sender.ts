import type { LookupAddress, LookupOptions } from 'node:dns';
import { addressProblem, literalAddress, webhookUrlProblem, type DestinationRules } from '@pfs/codecs';
import { annotateSpan, inSpan, traceHeaders, tracingEnabled, type HostResolver } from '@pfs/platform';
import { LRUCache } from 'lru-cache';
import { Agent, request } from 'undici';
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
   * The URL's form checked once per URL, not per attempt: the rules are fixed for the process
   * and endpoints send many attempts to one URL (the addresses are still checked per connection).
   */
  private readonly urlProblems = new LRUCache<string, { problem: string | null }>({ max: 10_000 });

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
    const formProblem = this.urlProblem(webhook.url);
    if (formProblem) return failure(`destination refused: url ${formProblem}`, elapsed());
    if (!tracingEnabled()) return this.post(webhook, elapsed);
    // The HTTP call is a client span of its own; the receiver gets its `traceparent`.
    const url = new URL(webhook.url);
    const attributes = { 'http.request.method': 'POST', 'server.address': url.hostname, 'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)) };
    return inSpan('POST', { kind: 'client', requireParent: true, attributes }, async () => {
      const result = await this.post({ ...webhook, headers: { ...webhook.headers, ...traceHeaders() } }, elapsed);
      annotateSpan(result.statusCode === null ? { 'error.type': result.timedOut ? 'timeout' : 'connection' } : { 'http.response.status_code': result.statusCode });
      return result;
    });
  }

  private async post(webhook: WebhookRequest, elapsed: () => number): Promise<AttemptResult> {
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    try {
      const answer = await request(webhook.url, { method: 'POST', headers: webhook.headers, body: webhook.body, dispatcher: this.agent, signal });
      const response = await readLimited(answer.body, signal);
      const statusCode = answer.statusCode;
      const retryAfterMs = statusCode === 429 || statusCode === 503 ? retryAfter(answer.headers['retry-after']) : null;
      return { statusCode, error: null, durationMs: elapsed(), response, retryAfterMs, timedOut: false };
    } catch (error) {
      return failure(describe(error, this.options.timeoutMs), elapsed(), signal.aborted);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  private urlProblem(url: string): string | null {
    let checked = this.urlProblems.get(url);
    if (!checked) {
      checked = { problem: webhookUrlProblem(url, this.options.rules) };
      this.urlProblems.set(url, checked);
    }
    return checked.problem;
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

/** The first 4 KB as UTF-8 (null for an empty answer); the rest is not read. */
async function readLimited(body: AsyncIterable<Buffer> & { destroy(): void }, signal: AbortSignal): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= RESPONSE_LIMIT_BYTES || signal.aborted) {
      body.destroy();
      break;
    }
  }
  if (!size) return null;
  return Buffer.concat(chunks).subarray(0, RESPONSE_LIMIT_BYTES).toString('utf8');
}

/** `Retry-After` as delta-seconds or an HTTP date, in ms from now; null when absent or unreadable. */
export function retryAfter(header: string | string[] | undefined, now = Date.now()): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function describe(error: unknown, timeoutMs: number): string {
  const chain: unknown[] = [error, (error as { cause?: unknown })?.cause];
  for (const link of chain) {
    if (link instanceof DestinationRefusedError) return link.message;
  }
  const e = error as { name?: string; code?: string; message?: string };
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT' || e.code === 'UND_ERR_CONNECT_TIMEOUT') {
    return `timed out after ${timeoutMs / 1000} s`;
  }
  const code = e.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return code ? `connection failed (${code})` : `connection failed (${e.message ?? 'unknown error'})`;
}
