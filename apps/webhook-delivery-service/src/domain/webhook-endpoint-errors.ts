import { DomainError } from '@pfs/contracts';

/** Also what another organization's endpoint, or a deleted one, answers (spec 7: `not_found`). */
export class EndpointNotFoundError extends DomainError {
  constructor(endpointId: string) {
    super('not_found', `No webhook endpoint ${endpointId} was found.`);
  }
}

export class InvalidEndpointError extends DomainError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}
