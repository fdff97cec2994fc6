import type { CursorPosition } from '@pfs/contracts';

interface Listed {
  createdAt: Date;
  id: string;
}

/** Order of every list: createdAt descending, then id descending (the keyset the Prisma adapters use). */
export function newestFirst(a: Listed, b: Listed): number {
  const byTime = b.createdAt.getTime() - a.createdAt.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** One keyset page over items in memory: newest first, strictly after `after`, at most `limit`. */
export function newestFirstPage<T extends Listed>(items: readonly T[], after: CursorPosition | null, limit: number): T[] {
  const position = after ? { createdAt: new Date(after.createdAt), id: after.id } : null;
  return [...items]
    .sort(newestFirst)
    .filter((item) => !position || newestFirst(item, position) > 0)
    .slice(0, limit);
}
