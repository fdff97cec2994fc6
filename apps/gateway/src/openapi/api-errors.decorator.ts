import { ApiExtension } from '@nestjs/swagger';
import type { ErrorCode } from '@pfs/contracts';

/** Read by the OpenAPI post-processor, then removed from the document. */
export const ERROR_CODES_EXTENSION = 'x-pfs-error-codes';

/**
 * Declares the error codes a route answers besides those of the platform behaviours, which
 * are added to every route by what it is (authenticated, mutating, acting on behalf of a
 * client): see platform-behaviours.ts. The OpenAPI responses are rendered from these codes,
 * grouped by the status of the one error table; declare codes here, never with ApiResponse.
 */
export function ApiErrors(...codes: ErrorCode[]): MethodDecorator {
  return ApiExtension(ERROR_CODES_EXTENSION, codes);
}
