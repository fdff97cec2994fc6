import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { DomainError } from '@pfs/contracts';

/**
 * Query and body validation: unknown fields are rejected (api-decisions §1), and a failure
 * becomes `invalid_request` with a message naming each offending field, e.g.
 * `limit: must be an integer between 1 and 100`.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    // Every DTO is built from the request by class-transformer first, so an empty DTO (a
    // route without query parameters) is a known value whose every field is unknown.
    forbidUnknownValues: false,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new DomainError('invalid_request', describeValidationErrors(errors)),
  });
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
