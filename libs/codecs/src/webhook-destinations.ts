import ipaddr from 'ipaddr.js';

/** The longest webhook URL accepted (api-decisions §8). */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

export interface DestinationRules {
  /** Development and tests only: admit `http://` and loopback addresses. */
  allowInsecure: boolean;
}

/**
 * Why a webhook URL is refused by its form alone, or null: `https://` only (`http://` too when
 * insecure URLs are allowed), at most 2,048 characters, no credentials, and a host that is not
 * an address webhooks may never reach. A host name is resolved by the caller, whose every
 * address must then pass `addressProblem`.
 */
export function webhookUrlProblem(text: string, rules: DestinationRules): string | null {
  if (text.length > MAX_WEBHOOK_URL_LENGTH) return `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute URL such as https://example.com/webhooks';
  }
  if (url.protocol !== 'https:' && !(rules.allowInsecure && url.protocol === 'http:')) return 'must be an https:// URL';
  if (url.username || url.password) return 'must not carry credentials';
  if (!url.hostname) return 'must name a host';
  const literal = literalAddress(url.hostname);
  if (literal) {
    const problem = addressProblem(literal, rules);
    if (problem) return problem;
  }
  return null;
}

/** The IP address a URL host names literally (`[::1]` included), or null for a host name. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare)) ? bare : null;
}

/**
 * Why webhooks may not reach this address, or null: only globally routable unicast is allowed.
 * Loopback, private (RFC 1918), unique local (fc00::/7), link-local (169.254/16 and with it the
 * cloud metadata address, fe80::/10), CGNAT (100.64/10), multicast, unspecified, broadcast and
 * reserved ranges are refused, IPv4-mapped IPv6 (`::ffff:127.0.0.1`) judged as the IPv4 it maps.
 * The ranges are ipaddr.js's, not hand-written masks.
 */
export function addressProblem(address: string, rules: DestinationRules): string | null {
  if (!ipaddr.isValid(address)) return `resolves to ${address}, which is not an IP address`;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range === 'unicast') return null;
  if (range === 'loopback' && rules.allowInsecure) return null;
  return `must not point at a ${RANGE_NAMES[range] ?? `${range}`} address (${parsed.toString()})`;
}

const RANGE_NAMES: Record<string, string> = {
  loopback: 'loopback',
  private: 'private (RFC 1918)',
  uniqueLocal: 'unique local (fc00::/7)',
  linkLocal: 'link-local or cloud metadata',
  carrierGradeNat: 'carrier-grade NAT (100.64.0.0/10)',
  multicast: 'multicast',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  reserved: 'reserved',
};
