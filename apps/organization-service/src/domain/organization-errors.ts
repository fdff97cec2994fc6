import { DomainError } from '@pfs/contracts';

export class OrganizationNotFoundError extends DomainError {
  constructor(organizationId: string) {
    super('organization_not_found', `No organization ${organizationId} was found.`);
  }
}

/** Unknown and revoked keys answer alike, so a caller cannot probe which keys once existed. */
export class AuthenticationFailedError extends DomainError {
  constructor() {
    super('authentication_failed', 'The API key is unknown or has been revoked.');
  }
}

export class ApiKeyNotFoundError extends DomainError {
  constructor(keyId: string) {
    super('not_found', `No API key ${keyId} was found.`);
  }
}

/** The caller may not act for the organization named in `Service-On-Behalf-Of`. */
export class OnBehalfOfForbiddenError extends DomainError {
  constructor(message: string) {
    super('forbidden', message);
  }
}

export class InvalidOrganizationError extends DomainError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}

/**
 * Two keys hashed alike. With 256 random bits this means a broken generator, not bad luck;
 * the whole creation is rolled back rather than leaving an organization without a key.
 */
export class ApiKeyCollisionError extends DomainError {
  constructor() {
    super('internal_error', 'The generated API key collided with an existing one; nothing was created.');
  }
}

// Authorizations (LOA).

/** Unknown, or not one the caller granted or received: the two answer alike. */
export class AuthorizationNotFoundError extends DomainError {
  constructor(authorizationId: string) {
    super('authorization_not_found', `No authorization ${authorizationId} was found.`);
  }
}

export class InvalidAuthorizationError extends DomainError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}
