import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * What makes two requests "the same" for an idempotency key: method, path with query, and the
 * body in the JSON Canonicalization Scheme (RFC 8785), so bodies that differ only in key order
 * or whitespace are the same request.
 */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()}\n${url}\n${body === undefined ? '' : (canonicalize(body) ?? 'null')}`)
    .digest('hex');
}
