import { buildPage, CursorCodec, listIdentity } from '../src/cursor';
import { DomainError, ERROR_CODES, isDomainError, isErrorCode } from '../src/errors';

describe('cursor codec', () => {
  const codec = new CursorCodec('secret');
  const position = { createdAt: '2026-11-21T04:44:09.123Z', id: 'acct_0123456789abcdef0123456789abcdef' };
  const expectInvalid = (fn: () => unknown) => {
    try {
      fn();
      throw new Error('accepted');
    } catch (error) {
      expect(isDomainError(error) && error.code).toBe('invalid_request');
    }
  };

  it('round-trips a position for its own list', () => {
    expect(codec.decode('accounts', codec.encode('accounts', position))).toEqual(position);
  });

  it('binds a cursor to whose list it is and to its filters, in any order', () => {
    const alpha = listIdentity('accounts', 'org_a');
    const cursor = codec.encode(alpha, position);
    expect(codec.decode(listIdentity('accounts', 'org_a'), cursor)).toEqual(position);
    expectInvalid(() => codec.decode(listIdentity('accounts', 'org_b'), cursor));
    const filtered = listIdentity('transactions', 'org_a', { status: 'COMPLETED', type: 'TRADE', accountId: undefined });
    expect(filtered).toBe(listIdentity('transactions', 'org_a', { type: 'TRADE', status: 'COMPLETED' }));
    expectInvalid(() => codec.decode(listIdentity('transactions', 'org_a', { status: 'PENDING', type: 'TRADE' }), codec.encode(filtered, position)));
  });

  it('refuses a cursor from another list, a tampered one, or one signed with another secret', () => {
    const cursor = codec.encode('accounts', position);
    expectInvalid(() => codec.decode('transactions', cursor));
    const [body, signature] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify({ l: 'accounts', c: position.createdAt, i: 'acct_ffffffffffffffffffffffffffffffff' })).toString('base64url');
    expectInvalid(() => codec.decode('accounts', `${forged}.${signature}`));
    expectInvalid(() => codec.decode('accounts', `${body}.${signature}x`));
    expectInvalid(() => new CursorCodec('other').decode('accounts', cursor));
    expectInvalid(() => codec.decode('accounts', 'not-a-cursor'));
  });

  it('cuts a page from limit + 1 rows', () => {
    const rows = [1, 2, 3].map((n) => ({ id: `r${n}`, createdAt: new Date(1000 - n) }));
    const page = buildPage(rows, 2, codec, 'rows', (r) => ({ createdAt: r.createdAt.toISOString(), id: r.id }), (r) => r.id);
    expect(page.data).toEqual(['r1', 'r2']);
    expect(page.hasMore).toBe(true);
    expect(codec.decode('rows', page.nextCursor as string)).toEqual({ createdAt: rows[1].createdAt.toISOString(), id: 'r2' });
    const last = buildPage(rows.slice(0, 2), 2, codec, 'rows', (r) => ({ createdAt: r.createdAt.toISOString(), id: r.id }), (r) => r.id);
    expect(last).toEqual({ data: ['r1', 'r2'], hasMore: false, nextCursor: null });
  });
});

describe('error catalog and job contract', () => {
  it('holds every code of spec §7 once, and domain errors cross as {code, message} only', () => {
    expect(ERROR_CODES).toHaveLength(38);
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    expect(isErrorCode('account_not_found')).toBe(true);
    expect(isErrorCode('teapot')).toBe(false);
    const error = new DomainError('insufficient_funds', 'short');
    expect(error.toPayload()).toEqual({ code: 'insufficient_funds', message: 'short' });
    expect(JSON.parse(JSON.stringify(error.toPayload()))).toEqual({ code: 'insufficient_funds', message: 'short' });
  });
});
