import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { NoQueryDto } from '../http/no-query.dto';
import { UNDECODABLE_QUERY_PARAMETER, type ParsedQuery } from '../http/query-string.parser';
import { RequestValidationError } from './request-validation-error';

/**
 * Query and body validation for every route: unknown fields are rejected (api-decisions §1),
 * a body must be a JSON object, and a failure becomes a RequestValidationError whose message
 * names each offending field, e.g. `limit: must be an integer between 1 and 100`.
 */
export class RequestValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      // Every DTO is built from the request by class-transformer first, so an empty DTO (a
      // route without query parameters) is a known value whose every field is unknown.
      forbidUnknownValues: false,
      transform: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => new RequestValidationError(describeValidationErrors(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // A missing body is an empty object (a DTO whose fields are all optional accepts it);
    // an array, a string or `null` is never what a route's body DTO describes.
    if (metadata.type === 'body' && metadata.metatype && value !== undefined && !isPlainObject(value)) {
      throw new RequestValidationError('The request body must be a JSON object.');
    }
    // Most routes take no query parameters and most requests send none: nothing to transform or
    // validate then (any parameter still takes the full pass below, and its 400).
    if (metadata.type === 'query' && metadata.metatype === NoQueryDto && isObject(value) && Reflect.ownKeys(value).length === 0) return new NoQueryDto();
    if (metadata.type === 'query' && isObject(value)) {
      const undecodable = (value as ParsedQuery)[UNDECODABLE_QUERY_PARAMETER];
      if (undecodable !== undefined) throw new RequestValidationError(`${undecodable}: must be percent-encoded UTF-8`);
    }
    const checked = metadata.type === 'body' || metadata.type === 'query';
    if (checked) {
      const problem = unstorableText(value, '');
      if (problem !== null) throw new RequestValidationError(`${problem.path || 'body'}: ${problem.rule}`);
    }
    // Nest deletes `constructor` and `prototype` from the value in place and class-transformer
    // skips every name found on an object (toString, __defineGetter__, …), so the whitelist
    // never sees them: every name as sent is kept here and checked against the DTO's fields.
    const sent = checked ? asData(value) : undefined;
    const transformed: unknown = await super.transform(value, metadata);
    if (checked) {
      const unknown = unrecognisedField(sent, transformed, '');
      if (unknown !== null) throw new RequestValidationError(`${unknown}: is not a recognised parameter`);
    }
    return transformed;
  }
}

export interface TextProblem {
  /** `name`, `note.text`, `tags[2]`; empty for the body itself. */
  path: string;
  rule: string;
}

const NUL_RULE = 'must not contain the NUL character (\\u0000)';
const SURROGATE_RULE = 'must be well-formed Unicode (a lone UTF-16 surrogate such as \\ud800 is not a character)';
// In a `u` regular expression a surrogate pair is one code point, so only lone halves match.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * The first string or key that PostgreSQL cannot store as sent: U+0000 (text refuses it) or a
 * lone UTF-16 surrogate (a JSON column refuses it; elsewhere it would be replaced by U+FFFD, a
 * different string). Refused here, naming the field, rather than failing deep in a service as a
 * 500 or storing something else. The body's depth is bounded by the JSON parser, so this
 * recursion is too.
 */
export function unstorableText(value: unknown, path: string): TextProblem | null {
  if (typeof value === 'string') return textProblem(value, path);
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = unstorableText(item, `${path}[${index}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      const keyPath = path ? `${path}.${key}` : key;
      const inKey = textProblem(key, keyPath);
      if (inKey !== null) return inKey;
      const found = unstorableText(item, keyPath);
      if (found !== null) return found;
    }
  }
  return null;
}

function textProblem(text: string, path: string): TextProblem | null {
  if (text.includes('\u0000')) return { path, rule: NUL_RULE };
  if (LONE_SURROGATE.test(text)) return { path, rule: SURROGATE_RULE };
  return null;
}

/**
 * The path of the first name in `raw` (as the client sent it) that the DTO `parsed` was built
 * into does not declare, descending into nested DTOs; null when every name is declared. Only
 * own keys of `raw` are read and the declared names are a Set, so no name is ever looked up on
 * a prototype.
 */
export function unrecognisedField(raw: unknown, parsed: unknown, path: string): string | null {
  if (Array.isArray(raw)) {
    if (!Array.isArray(parsed)) return null;
    for (const [index, item] of raw.entries()) {
      const found = unrecognisedField(item, parsed[index], `${path}[${index}]`);
      if (found !== null) return found;
    }
    return null;
  }
  const declared = declaredFieldsOf(parsed);
  if (!isObject(raw) || declared === null) return null;
  for (const key of Object.keys(raw)) {
    const keyPath = path ? `${path}.${key}` : key;
    if (!declared.has(key)) return keyPath;
    const nested = Object.hasOwn(parsed as object, key) ? (parsed as Record<string, unknown>)[key] : undefined;
    const found = unrecognisedField((raw as Record<string, unknown>)[key], nested, keyPath);
    if (found !== null) return found;
  }
  return null;
}

/** A copy of a parsed body or query whose objects have no prototype, so every name is an own key and nothing else. */
export function asData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asData);
  if (!isObject(value)) return value;
  const copy = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value)) copy[key] = asData((value as Record<string, unknown>)[key]);
  return copy;
}

/** The fields a DTO instance's class declares (any class-validator rule); null for a plain value. */
function declaredFieldsOf(parsed: unknown): ReadonlySet<string> | null {
  if (!isObject(parsed)) return null;
  const type = Object.getPrototypeOf(parsed) as { constructor?: unknown } | null;
  const constructor = type?.constructor;
  if (typeof constructor !== 'function' || constructor === Object) return null;
  const rules = getMetadataStorage().getTargetValidationMetadatas(constructor, '', true, false);
  return new Set(rules.map((rule) => rule.propertyName));
}

export function createValidationPipe(): ValidationPipe {
  return new RequestValidationPipe();
}

function isPlainObject(value: unknown): boolean {
  return isObject(value) && !Array.isArray(value);
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

export function describeValidationErrors(errors: readonly ValidationError[]): string {
  const messages = new Set<string>();
  const visit = (error: ValidationError, parent: string) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const constraints = error.constraints ?? {};
    // One message per field: the first rule that failed says what the field must be.
    const [kind, message] = Object.entries(constraints)[0] ?? [];
    if (kind === 'whitelistValidation') messages.add(`${path}: is not a recognised parameter`);
    else if (message) messages.add(`${path}: ${message}`);
    for (const child of error.children ?? []) visit(child, path);
  };
  for (const error of errors) visit(error, '');
  return messages.size ? [...messages].join('; ') : 'The request is invalid.';
}
