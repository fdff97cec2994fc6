import type { FastifyReply } from 'fastify';
import type { PageView } from '@pfs/contracts';

/** The list body of every collection (api-decisions §10). */
export interface ListEnvelope<T> {
  object: 'list';
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

export const PAGE_SIZE_HEADER = 'x-page-size';
export const NEXT_CURSOR_HEADER = 'x-next-cursor';

/** A page as the client sees it: the envelope, plus `X-Page-Size` and (unless last) `X-Next-Cursor`. */
export function pageResponse<T>(reply: FastifyReply, page: PageView<T>): ListEnvelope<T> {
  void reply.header(PAGE_SIZE_HEADER, String(page.data.length));
  if (page.nextCursor) void reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
  return { object: 'list', data: page.data, hasMore: page.hasMore, nextCursor: page.nextCursor };
}

/** An unpaginated collection, returned in full. */
export function fullList<T>(data: T[]): ListEnvelope<T> {
  return { object: 'list', data, hasMore: false, nextCursor: null };
}
