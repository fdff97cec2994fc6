import { WebhookSender, type WebhookRequest } from '../../../src/application/ports/webhook-sender';
import type { AttemptResult } from '../../../src/domain/attempt-result';

/** A receiver's answer as the sender reports it. */
export function answered(statusCode: number, fields: Partial<AttemptResult> = {}): AttemptResult {
  return { statusCode, error: null, durationMs: 12, response: null, retryAfterMs: null, timedOut: false, ...fields };
}

/** No answer: a refused address, a reset, or a timeout. */
export function noAnswer(error: string, fields: Partial<AttemptResult> = {}): AttemptResult {
  return { statusCode: null, error, durationMs: 12, response: null, retryAfterMs: null, timedOut: false, ...fields };
}

/**
 * Answers attempts with the results the test queued, in order, and records every request. An
 * attempt with nothing queued fails the test: it was not expected to be sent.
 */
export class ScriptedWebhookSender extends WebhookSender {
  readonly requests: WebhookRequest[] = [];
  private readonly script: AttemptResult[] = [];

  /** Queues the next answers. */
  willAnswer(...results: AttemptResult[]): this {
    this.script.push(...results);
    return this;
  }

  async send(request: WebhookRequest): Promise<AttemptResult> {
    this.requests.push({ url: request.url, headers: { ...request.headers }, body: request.body });
    const result = this.script.shift();
    if (!result) throw new Error(`unexpected attempt to ${request.url}: no answer was scripted`);
    return { ...result };
  }

  /** Answers queued but never used. */
  get unused(): number {
    return this.script.length;
  }
}
