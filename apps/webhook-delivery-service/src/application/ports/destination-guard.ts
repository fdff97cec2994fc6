/**
 * Whether webhooks may be sent to a URL: its form, and every address its host
 * resolves to now. Answers the problem, or null when the URL is acceptable.
 */
export abstract class DestinationGuard {
  abstract problem(url: string): Promise<string | null>;
}
