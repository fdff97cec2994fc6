import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
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
    if (metadata.type === 'body' || metadata.type === 'query') {
      const field = fieldWithNul(value, '');
      if (field !== null) throw new RequestValidationError(`${field || 'body'}: must not contain the NUL character (\\u0000)`);
    }
    return super.transform(value, metadata);
  }
}

/**
 * The path of the first string holding U+0000, or null. PostgreSQL text cannot store it, so it
 * is refused here, naming the field, rather than failing deep in a service as a 500.
 */
export function fieldWithNul(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = fieldWithNul(item, `${path}[${index}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const keyPath = path ? `${path}.${key}` : key;
      if (key.includes('\u0000')) return keyPath;
      const found = fieldWithNul(item, keyPath);
      if (found !== null) return found;
    }
  }
  return null;
}

export function createValidationPipe(): ValidationPipe {
  return new RequestValidationPipe();
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
