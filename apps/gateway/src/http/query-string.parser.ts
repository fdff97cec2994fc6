/** Set on a parsed query when a name or value is not percent-encoded UTF-8; the validation pipe refuses it. */
export const UNDECODABLE_QUERY_PARAMETER = Symbol('undecodable query parameter');

export interface ParsedQuery {
  [name: string]: string | string[];
  /** The first parameter that could not be decoded (its name, decoded when possible). */
  [UNDECODABLE_QUERY_PARAMETER]?: string;
}

/**
 * Fastify's `querystringParser`. Every name is data: the result has no prototype, so
 * `__proto__`, `toString` or `constructor` are own keys like any other, which the
 * unknown-parameter check then refuses, rather than names that vanish or shadow a built-in.
 * Escapes must decode to UTF-8 (decodeURIComponent throws on anything else, lone surrogates
 * included): one that does not is remembered for a 400, never replaced with U+FFFD.
 */
export function parseQueryString(query: string): ParsedQuery {
  const parsed = Object.create(null) as ParsedQuery;
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const separator = pair.indexOf('=');
    const rawName = separator === -1 ? pair : pair.slice(0, separator);
    const name = decode(rawName);
    const value = decode(separator === -1 ? '' : pair.slice(separator + 1));
    if (name === null || value === null) {
      parsed[UNDECODABLE_QUERY_PARAMETER] ??= name ?? rawName;
      continue;
    }
    const previous = Object.hasOwn(parsed, name) ? parsed[name] : undefined;
    parsed[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return parsed;
}

function decode(text: string): string | null {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return null;
  }
}
