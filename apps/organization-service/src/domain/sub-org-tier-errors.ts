import { DomainError } from '@pfs/contracts';

export class SubOrgTierNotFoundError extends DomainError {
  constructor(key: string) {
    super('sub_org_tier_not_found', `No sub-org tier ${key} was found.`);
  }
}

/** The tier exists but the operator has not offered it to this broker. */
export class SubOrgTierNotAvailableError extends DomainError {
  constructor(key: string) {
    super('sub_org_tier_not_available', `The tier ${key} is not available to this organization.`);
  }
}

/** Only the client's creator may set its tier (spec 4.2 rule 1); an LOA does not suffice. */
export class SubOrgTierForbiddenError extends DomainError {
  constructor(organizationId: string) {
    super('forbidden', `Only the organization that created ${organizationId} can set its tier.`);
  }
}

export class InvalidSubOrgTierQueryError extends DomainError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}
