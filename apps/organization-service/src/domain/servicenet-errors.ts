import { DomainError } from '@pfs/contracts';

/** Servicenet is off for the organization: 403 (api-decisions §2). */
export class ServicenetNotEnabledError extends DomainError {
  constructor(organizationId: string) {
    super('servicenet_not_enabled', `Servicenet is not enabled for ${organizationId}; enable it with POST /v1/servicenet/enable.`);
  }
}

export class ServicenetHandleTakenError extends DomainError {
  constructor(handle: string) {
    super('servicenet_handle_taken', `The servicenet handle ${handle} is taken.`);
  }
}

export class ServicenetHandleNotFoundError extends DomainError {
  constructor(handle: string) {
    super('servicenet_handle_not_found', `No servicenet handle ${handle} was found.`);
  }
}

export class InvalidServicenetHandleError extends DomainError {
  constructor(problem: string) {
    super('invalid_request', `handle: ${problem}`);
  }
}
