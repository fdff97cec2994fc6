import { ApiExtension } from '@nestjs/swagger';
import type { ErrorCode } from '@pfs/contracts';

/** Read by the OpenAPI post-processor, then removed from the document. */
export const SPEC_LISTED_CODES_EXTENSION = 'x-pfs-spec-listed-codes';

/**
 * How a code that spec §7 lists for the endpoint is answered when it is not answered as
 * itself: either as more specific codes (api-decisions give e.g. `organization_not_found`
 * where the spec says `not_found`), or never, with the reason.
 */
export type SpecListedCodeNote = { answeredAs: readonly ErrorCode[]; why: string } | { never: string };

/**
 * Accounts for the codes of spec §7's per-endpoint table that the route does not answer as
 * such, so a partner reading the spec and the OpenAPI document side by side is never left
 * guessing. Rendered into the operation's description; the document test checks that every
 * listed code is either answered or explained here.
 */
export function SpecListedCodes(notes: Partial<Record<ErrorCode, SpecListedCodeNote>>): MethodDecorator {
  return ApiExtension(SPEC_LISTED_CODES_EXTENSION, notes);
}

export function renderSpecListedCodes(notes: Partial<Record<ErrorCode, SpecListedCodeNote>>): string {
  const lines = Object.entries(notes).map(([code, note]) =>
    'never' in note
      ? `\`${code}\` is never answered here: ${note.never}`
      : `\`${code}\` is answered as ${note.answeredAs.map((specific) => `\`${specific}\``).join(' or ')}: ${note.why}`,
  );
  return `How this endpoint answers codes of the error list: ${lines.join(' ')}`;
}
