import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RequestValidationError } from '../errors/request-validation-error';

/** Deepest nesting of objects and arrays a body may have; no route's body comes close. */
export const MAX_JSON_DEPTH = 32;

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;

/**
 * The API reads JSON and nothing else. Every other parser is removed (Fastify's text/plain and
 * Nest's form-urlencoded would hand a route something it then acts on), so any other
 * Content-Type is refused before a route runs. A JSON body must be UTF-8 (RFC 8259), sent
 * without a Content-Encoding, and nest at most MAX_JSON_DEPTH levels: checked on the text in
 * one pass before parsing, so no later step that walks the body (validation, idempotency
 * fingerprint) can exhaust the stack.
 */
export function installJsonBodyParser(instance: FastifyInstance, bodyLimit: number): void {
  instance.removeAllContentTypeParsers();
  const parseJson = instance.getDefaultJsonParser('error', 'error');
  instance.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, (request, body, done) => {
    const refusal = transportRefusal(request);
    if (refusal !== null) return done(new RequestValidationError(refusal), undefined);
    let text: string;
    try {
      text = STRICT_UTF8.decode(body as Buffer);
    } catch {
      return done(new RequestValidationError('The request body is not valid UTF-8.'), undefined);
    }
    if (nestingExceeds(text, MAX_JSON_DEPTH)) {
      return done(new RequestValidationError(`The request body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels.`), undefined);
    }
    parseJson(request, text, done);
  });
}

/** Why the body cannot be read as sent: a charset other than UTF-8, or a Content-Encoding. */
function transportRefusal(request: FastifyRequest): string | null {
  const charset = CHARSET.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return 'Content-Type must be application/json in UTF-8.';
  const encoding = request.headers['content-encoding']?.trim().toLowerCase();
  if (encoding !== undefined && encoding !== '' && encoding !== 'identity') return 'Content-Encoding is not supported: send the body uncompressed.';
  return null;
}

/** Whether the JSON text opens more than `limit` objects or arrays inside each other (brackets in strings do not count). */
export function nestingExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c) index++; // a backslash escapes the next character, a quote included
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x7b || char === 0x5b) {
      if (++depth > limit) return true;
    } else if (char === 0x7d || char === 0x5d) {
      depth--;
    }
  }
  return false;
}
