/** What one HTTP attempt came to, as the sender saw it. */
export interface AttemptResult {
  /** The receiver's status; null when no answer came (timeout, refused address, connection error). */
  statusCode: number | null;
  /** Why it failed before an answer (null when an answer came). */
  error: string | null;
  durationMs: number;
  /** The first 4 KB of the answer, or null. */
  response: string | null;
  /** A 429's or 503's `Retry-After`, in ms from now; null otherwise. */
  retryAfterMs: number | null;
  /** No answer within the attempt's time limit. */
  timedOut: boolean;
}

/** Success is a 2xx; 410 Gone disables the endpoint; anything else (a 3xx too) is retried. */
export type AttemptVerdict = 'succeeded' | 'gone' | 'failed';

export function verdictOf(result: AttemptResult): AttemptVerdict {
  if (result.statusCode === null) return 'failed';
  if (result.statusCode >= 200 && result.statusCode < 300) return 'succeeded';
  return result.statusCode === 410 ? 'gone' : 'failed';
}

/** The error recorded for an answer that is not a 2xx (the attempt log's `error`). */
export function answerError(result: AttemptResult): string | null {
  if (result.error !== null) return result.error;
  const status = result.statusCode ?? 0;
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return `HTTP ${status}: redirects are not followed`;
  return `HTTP ${status}`;
}
