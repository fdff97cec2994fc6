import { DomainError, type CommandService, type ErrorPayload } from '@pfs/contracts';

/** A domain error that came back over a queue as `{code, message}`. */
export class RemoteDomainError extends DomainError {
  constructor(payload: ErrorPayload) {
    super(payload.code, payload.message);
  }
}

/**
 * The owning service did not answer in time or has no worker at all. The gateway answers 503
 * with code `internal_error` and a message naming the service.
 */
export class ServiceUnavailableError extends DomainError {
  constructor(readonly service: CommandService) {
    super('internal_error', `The ${service} service is unavailable; try again shortly.`);
  }
}
