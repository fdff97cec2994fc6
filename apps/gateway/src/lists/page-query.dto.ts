import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import type { PageRequest } from '@pfs/contracts';

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;
const LIMIT_RULE = `must be an integer between 1 and ${MAX_PAGE_SIZE}`;
const CURSOR_RULE = 'must be the nextCursor of a previous page of this list';

/** `limit` and `cursor` of every paginated list (api-decisions §10). */
export class PageQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
    description: `Page size, 1–${MAX_PAGE_SIZE}; anything else is 400 \`invalid_request\`.`,
  })
  @IsOptional()
  // Digits only: `1.5`, `1e2`, ` 7` or `abc` stay strings and fail the rule below.
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^[0-9]{1,4}$/.test(value) ? Number(value) : value))
  @IsInt({ message: LIMIT_RULE })
  @Min(1, { message: LIMIT_RULE })
  @Max(MAX_PAGE_SIZE, { message: LIMIT_RULE })
  limit?: number;

  @ApiPropertyOptional({
    type: 'string',
    maxLength: 1024,
    description:
      'Opaque cursor: the `nextCursor` (or `X-Next-Cursor`) of the previous page. Omit it for the first page. A cursor from another list or an altered one is 400 `invalid_request`.',
  })
  @IsOptional()
  @IsString({ message: CURSOR_RULE })
  @MinLength(1, { message: CURSOR_RULE })
  @MaxLength(1024, { message: CURSOR_RULE })
  cursor?: string;

  toPageRequest(): PageRequest {
    return { limit: this.limit ?? DEFAULT_PAGE_SIZE, cursor: this.cursor ?? null };
  }
}
