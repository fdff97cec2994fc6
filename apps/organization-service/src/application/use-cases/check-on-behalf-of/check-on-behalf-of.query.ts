import type { OnBehalfOfMode } from '@pfs/contracts';

export interface CheckOnBehalfOfQuery {
  /** The organization of the API key. */
  callerOrganizationId: string;
  /** The organization named in `Service-On-Behalf-Of`. */
  targetOrganizationId: string;
  /** What the endpoint accepts: the creator only, or the creator or an ACTIVE LOA grantee. */
  mode: OnBehalfOfMode;
}
