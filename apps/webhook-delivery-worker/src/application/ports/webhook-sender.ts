import type { AttemptResult } from '../../domain/attempt-result';

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends one signed attempt and says what came of it; never throws for anything the receiver or
 * the network does (a refused address, a timeout and a reset are results too).
 */
export abstract class WebhookSender {
  abstract send(request: WebhookRequest): Promise<AttemptResult>;
}
