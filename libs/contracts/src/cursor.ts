import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError } from './errors';
import type { PageRequest } from './commands';
import type { PageView } from './views';

/** Keyset position: lists are ordered newest first on `(createdAt, id)`. */
export interface CursorPosition {
  createdAt: string;
  id: string;
}

/**
 * Opaque, tamper-evident cursors: base64url(JSON) + "." + HMAC over it, bound to the list they
 * came from, so a cursor from another list or an edited one is refused with 400.
 */
/**
 * What a cursor is bound to: the list, whose it is and its filters (sorted), so a cursor from
 * any other list, another organization's same list or the same list with other filters is
 * refused (api-decisions §10) rather than silently positioning this one.
 */
export function listIdentity(list: string, owner: string, filters: Record<string, string | null | undefined> = {}): string {
  const applied = Object.entries(filters)
    .filter(([, value]) => value !== undefined && value !== null)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${key}=${value}`);
  return [list, owner, ...applied].join('|');
}

export class CursorCodec {
  constructor(private readonly secret: string) {}

  encode(list: string, position: CursorPosition): string {
    const body = Buffer.from(JSON.stringify({ l: list, c: position.createdAt, i: position.id })).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  decode(list: string, cursor: string): CursorPosition {
    const [body, signature, extra] = cursor.split('.');
    if (!body || !signature || extra !== undefined || !this.verify(body, signature)) {
      throw invalidCursor();
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw invalidCursor();
    }
    const value = parsed as { l?: unknown; c?: unknown; i?: unknown };
    if (value.l !== list || typeof value.c !== 'string' || typeof value.i !== 'string' || Number.isNaN(Date.parse(value.c))) {
      throw invalidCursor();
    }
    return { createdAt: value.c, id: value.i };
  }

  /**
   * One keyset page of a list: decodes the request's cursor, reads `limit + 1` rows newest
   * first after it, and cuts the page. Every list use case goes through here.
   */
  async page<T extends { id: string; createdAt: Date }, V>(
    list: string,
    request: PageRequest,
    read: (after: CursorPosition | null, take: number) => Promise<T[]>,
    view: (row: T) => V,
  ): Promise<PageView<V>> {
    const after = request.cursor ? this.decode(list, request.cursor) : null;
    const rows = await read(after, request.limit + 1);
    return buildPage(rows, request.limit, this, list, (row) => ({ createdAt: row.createdAt.toISOString(), id: row.id }), view);
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url').slice(0, 22);
  }

  private verify(body: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}

function invalidCursor(): DomainError {
  return new DomainError('invalid_request', 'cursor: is not a valid cursor for this list');
}

/** Cuts a keyset page out of `limit + 1` rows read newest first. */
export function buildPage<T, V>(
  rows: T[],
  limit: number,
  codec: CursorCodec,
  list: string,
  positionOf: (row: T) => CursorPosition,
  view: (row: T) => V,
): { data: V[]; hasMore: boolean; nextCursor: string | null } {
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return {
    data: page.map(view),
    hasMore,
    nextCursor: hasMore && last ? codec.encode(list, positionOf(last)) : null,
  };
}
