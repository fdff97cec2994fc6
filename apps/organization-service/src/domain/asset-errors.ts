import { DomainError } from '@pfs/contracts';

/** An asset code outside the catalog (api-decisions §4): 404 `not_found`. */
export class AssetNotFoundError extends DomainError {
  constructor(asset: string) {
    super('not_found', `No asset ${asset} was found.`);
  }
}
