const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000 };

/**
 * A duration written as a whole number and a unit: `500ms`, `2s`, `1m`. Anything else (no unit,
 * a fraction, a sign, zero) throws, naming the variable, so a bad setting stops the service at start.
 */
export function parseDuration(name: string, text: string): number {
  const match = /^([0-9]{1,9})(ms|s|m)$/.exec(text.trim());
  const milliseconds = match ? Number(match[1]) * UNITS[match[2]!]! : 0;
  if (!match || milliseconds <= 0) throw new Error(`${name} must be a positive duration such as 2s, 500ms or 1m, not "${text}"`);
  return milliseconds;
}
