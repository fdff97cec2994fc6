import { DomainError } from '@pfs/contracts';

/** Also what another organization's beneficiary answers: it must look as if it did not exist. */
export class BeneficiaryNotFoundError extends DomainError {
  constructor(beneficiaryId: string) {
    super('beneficiary_not_found', `No beneficiary ${beneficiaryId} was found.`);
  }
}

/** Archiving twice, or changing an archived beneficiary (unarchive it first). */
export class BeneficiaryAlreadyArchivedError extends DomainError {
  constructor(beneficiaryId: string) {
    super('beneficiary_already_archived', `Beneficiary ${beneficiaryId} is archived.`);
  }
}

export class BeneficiaryNotArchivedError extends DomainError {
  constructor(beneficiaryId: string, status: string) {
    super('beneficiary_not_archived', `Beneficiary ${beneficiaryId} is ${status}, not ARCHIVED.`);
  }
}

/** A blocked beneficiary is frozen: no change, no archive, until it is unblocked. */
export class BeneficiaryBlockedError extends DomainError {
  constructor(beneficiaryId: string) {
    super('beneficiary_blocked', `Beneficiary ${beneficiaryId} is blocked.`);
  }
}

/** The catalog has no `beneficiary_not_blocked`: unblocking one that is not blocked is a bad request. */
export class BeneficiaryNotBlockedError extends DomainError {
  constructor(beneficiaryId: string, status: string) {
    super('invalid_request', `status: beneficiary ${beneficiaryId} is ${status}, not BLOCKED.`);
  }
}

/** A field the domain refuses; the message starts with the field's wire name so the caller knows what to fix. */
export class InvalidBeneficiaryFieldError extends DomainError {
  constructor(
    readonly field: string,
    problem: string,
  ) {
    super('invalid_request', `${field}: ${problem}`);
  }
}

/** The account is not one of the caller's: the same answer whether it exists elsewhere or not at all. */
export class AccountNotFoundError extends DomainError {
  constructor(accountId: string) {
    super('account_not_found', `No account ${accountId} was found.`);
  }
}

/** Blocking is a sandbox rehearsal; in production the operation does not exist. */
export class SandboxOnlyError extends DomainError {
  constructor() {
    super('not_found', 'No such operation: blocking a beneficiary exists only in the sandbox.');
  }
}

/** The caller is not on servicenet: it may not add servicenet payees. */
export class ServicenetNotEnabledError extends DomainError {
  constructor(organizationId: string) {
    super('servicenet_not_enabled', `Servicenet is not enabled for ${organizationId}; enable it with POST /v1/servicenet/enable.`);
  }
}

/** No organization holds the handle, or its organization is off servicenet: it cannot be paid. */
export class ServicenetHandleNotFoundError extends DomainError {
  constructor(handle: string) {
    super('servicenet_handle_not_found', `No servicenet handle ${handle} was found.`);
  }
}
