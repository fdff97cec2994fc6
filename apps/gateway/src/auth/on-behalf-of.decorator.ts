import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiHeader } from '@nestjs/swagger';
import type { OnBehalfOfMode } from '@pfs/contracts';

export const ON_BEHALF_OF_HEADER = 'service-on-behalf-of';
export const ON_BEHALF_OF_POLICY = 'pfs:on-behalf-of';
/** Read by the OpenAPI post-processor, then removed from the document. */
export const ON_BEHALF_OF_EXTENSION = 'x-pfs-on-behalf-of';

export interface OnBehalfOfPolicy {
  mode: OnBehalfOfMode;
  /** The route acts only for a client: the header must be sent. */
  required: boolean;
}

const WHO: Record<OnBehalfOfMode, string> = {
  creator: 'the organization that created the client (an LOA does not suffice)',
  creator_or_loa: 'the organization that created the client, or one holding an ACTIVE authorization (LOA) signed by the client',
};

/**
 * Declares that the route accepts `Service-On-Behalf-Of` (api-decisions §3), and from whom.
 * A route without it refuses the header with 400 `invalid_request`. The organization service
 * decides each request; the route then acts as the named client (@ActingOrganizationId).
 */
export function OnBehalfOf(mode: OnBehalfOfMode, options: { required?: boolean } = {}): MethodDecorator {
  const policy: OnBehalfOfPolicy = { mode, required: options.required ?? false };
  return applyDecorators(
    SetMetadata(ON_BEHALF_OF_POLICY, policy),
    ApiExtension(ON_BEHALF_OF_EXTENSION, policy),
    ApiHeader({
      name: 'Service-On-Behalf-Of',
      required: policy.required,
      description:
        `Act for this client organization instead of the caller's own. Allowed for ${WHO[mode]}. ` +
        'A malformed id is 400; an unknown organization 404 `organization_not_found`; a caller without that relation 403 `forbidden`.' +
        (policy.required ? ' Required on this endpoint.' : ' Omit it to act for the caller.'),
      schema: { type: 'string', pattern: '^org_[0-9a-f]{32}$', example: 'org_5b0e7d1c9a3f4e2b8c6d0a1f3e5b7c9d' },
    }),
  );
}
