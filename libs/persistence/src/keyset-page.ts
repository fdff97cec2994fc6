import type { CursorPosition } from '@pfs/contracts';

/** The where clause of the rows after a cursor position in newest-first order. */
export type NewestFirstAfter =
  | { OR: [{ createdAt: { lt: Date } }, { createdAt: Date; id: { lt: string } }] }
  | Record<string, never>;

/**
 * The Prisma arguments of one keyset page of a list read newest first on (createdAt, id), the
 * order CursorCodec.page cuts pages in: rows strictly after `after`, at most `take` of them.
 * Combine `where` with the list's own filter.
 */
export function newestFirstPage(
  after: CursorPosition | null,
  take: number,
): { where: NewestFirstAfter; orderBy: Array<{ createdAt: 'desc' } | { id: 'desc' }>; take: number } {
  const where: NewestFirstAfter = after
    ? {
        OR: [
          { createdAt: { lt: new Date(after.createdAt) } },
          { createdAt: new Date(after.createdAt), id: { lt: after.id } },
        ],
      }
    : {};
  return { where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take };
}
