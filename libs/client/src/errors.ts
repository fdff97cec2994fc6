/** The body of every error answer: `{"error": {"code", "message", "requestId"}}`. */
export interface ErrorEnvelope {
  error: { code: string; message: string; requestId: string };
}

/**
 * A non-2xx answer of the API. `code` is one of the contract's error codes (`quote_expired`,
 * `rate_limited`, ...); quote `requestId` when you contact support.
 */
export class PfsApiError extends Error {
  override readonly name = 'PfsApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | undefined,
    /** The answer's headers, e.g. `Retry-After` of a 429. */
    readonly headers: Headers,
  ) {
    super(message);
  }

  /** Reads an error answer; a body that is not the envelope (a proxy's page) still becomes an error. */
  static async fromResponse(response: Response): Promise<PfsApiError> {
    const text = await response.text().catch(() => '');
    let envelope: Partial<ErrorEnvelope> | undefined;
    try {
      envelope = JSON.parse(text) as Partial<ErrorEnvelope>;
    } catch {
      envelope = undefined;
    }
    const error = envelope?.error;
    const requestId = error?.requestId ?? response.headers.get('x-request-id') ?? undefined;
    if (error && typeof error.code === 'string' && typeof error.message === 'string') {
      return new PfsApiError(response.status, error.code, error.message, requestId, response.headers);
    }
    return new PfsApiError(response.status, 'unexpected_response', `HTTP ${response.status}: ${text.slice(0, 200)}`, requestId, response.headers);
  }
}
