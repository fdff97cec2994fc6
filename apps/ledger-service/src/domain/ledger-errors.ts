import { DomainError } from '@pfs/contracts';

/** Also what another organization's account answers: it must look as if it did not exist. */
export class AccountNotFoundError extends DomainError {
  constructor(accountId: string) {
    super('account_not_found', `No account ${accountId} was found.`);
  }
}

// Assets and funding methods (issue 4 part C).

/** An asset code outside the catalog (api-decisions §4): 404 `not_found`. */
export class UnknownAssetError extends DomainError {
  constructor(asset: string) {
    super('not_found', `No asset ${asset} was found.`);
  }
}

/** Also what a method on another organization's account answers. */
export class FundingMethodNotFoundError extends DomainError {
  constructor(fundingMethodId: string) {
    super('funding_method_not_found', `No funding method ${fundingMethodId} was found.`);
  }
}

/** The organization's primary account is opened on `organization.created`; until then there is none. */
export class PrimaryAccountNotFoundError extends DomainError {
  constructor(organizationId: string) {
    super('account_not_found', `Organization ${organizationId} has no primary account yet.`);
  }
}
