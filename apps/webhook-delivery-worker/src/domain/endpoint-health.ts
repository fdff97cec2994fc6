/** An endpoint's current run of failed attempts (reset by any success). */
export interface EndpointHealth {
  consecutiveFailures: number;
  /** When the run began; null while the endpoint is healthy. */
  failingSince: Date | null;
}

/** WEBHOOK_DISABLE_AFTER (default 5 days) and WEBHOOK_DISABLE_MIN_FAILURES (default 10). */
export interface DisableRules {
  afterMs: number;
  minFailures: number;
}

export const DEFAULT_DISABLE_RULES: DisableRules = { afterMs: 5 * 24 * 3600 * 1000, minFailures: 10 };

/** api-decisions §8: every attempt has failed for `afterMs`, and at least `minFailures` in a row. */
export function shouldDisable(health: EndpointHealth, now: Date, rules: DisableRules): boolean {
  return (
    health.failingSince !== null &&
    health.consecutiveFailures >= rules.minFailures &&
    now.getTime() - health.failingSince.getTime() >= rules.afterMs
  );
}
