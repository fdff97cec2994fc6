/**
 * Whether webhooks may be sent to a URL (issue 11 §1): its form, and every address its host
 * resolves to now. Answers the problem, or null when the URL is acceptable.
 */
export abstract class DestinationGuard {
  abstract problem(url: string): Promise<string | null>;
}
