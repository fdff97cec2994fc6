import { DomainError } from '@pfs/contracts';

/**
 * The request itself is malformed: a body, query or header the route cannot accept. Raised
 * only in the gateway, before any service is asked; the error filter answers it with the
 * route's declared code (`invalid_request` unless @RequestErrorCode says `validation_error`).
 */
export class RequestValidationError extends DomainError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}
