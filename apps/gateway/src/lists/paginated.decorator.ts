import { applyDecorators, UseInterceptors, type Type } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiSchema } from '@nestjs/swagger';
import { LIST_RESPONSE_HEADERS } from '../openapi/response-headers';
import { PageInterceptor } from './page.interceptor';

const listSchemas = new Map<string, Type>();

/** The named list schema of an item type: `{object: "list", data: [item], hasMore, nextCursor}`. */
export function listSchemaOf(item: Type, name: string): Type {
  const known = listSchemas.get(name);
  if (known) return known;

  @ApiSchema({ name, description: 'One page, newest first.' })
  class ListDto {
    @ApiProperty({ enum: ['list'] })
    object!: 'list';

    @ApiProperty({ type: () => [item] })
    data!: unknown[];

    @ApiProperty({ description: 'Whether another page follows.' })
    hasMore!: boolean;

    @ApiProperty({ type: 'string', nullable: true, description: 'Pass as `cursor` to read the next page; null on the last page.' })
    nextCursor!: string | null;
  }
  listSchemas.set(name, ListDto);
  return ListDto;
}

/**
 * Declares a paginated list (api-decisions §10): the handler takes PageQueryDto (`limit` 1–100,
 * default 25; opaque `cursor`) and returns the service's keyset page; the response is the list
 * envelope with `X-Page-Size` and, unless on the last page, `X-Next-Cursor`.
 */
export function Paginated(item: Type, listName: string, description = 'One page of the list, newest first.'): MethodDecorator {
  return applyDecorators(
    UseInterceptors(PageInterceptor),
    ApiOkResponse({ description, type: listSchemaOf(item, listName), headers: LIST_RESPONSE_HEADERS }),
  );
}
