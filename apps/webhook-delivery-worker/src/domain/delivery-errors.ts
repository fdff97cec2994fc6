import { DomainError } from '@pfs/contracts';

/** A message that was never due to this endpoint (or another organization's): spec 7 `not_found`. */
export class DeliveryNotFoundError extends DomainError {
  constructor(messageId: string) {
    super('not_found', `No delivery of message ${messageId} to this webhook endpoint was found.`);
  }
}

export class InvalidRecoveryWindowError extends DomainError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}
