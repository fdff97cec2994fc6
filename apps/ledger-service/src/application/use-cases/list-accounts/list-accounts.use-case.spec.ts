import { CursorCodec, DomainError, newId, type AccountView, type PageView } from '@pfs/contracts';
import { InMemoryAccountRepository } from '../../../../test/support/in-memory/in-memory-account.repository';
import { Account } from '../../../domain/account';
import { ListAccountsUseCase } from './list-accounts.use-case';

describe('ListAccountsUseCase', () => {
  const organizationId = newId('organization');
  const otherOrganizationId = newId('organization');
  const codec = new CursorCodec('unit-test-cursor-secret');

  function accountAt(organization: string, iso: string, id = newId('account')): Account {
    return new Account(id, organization, 'Ops', null, false, 'ACTIVE', [], [], new Date(iso), new Date(iso));
  }

  // Five accounts of the caller, two of them created in the same millisecond, plus a stranger's.
  const tie = '2026-11-20T12:00:00.000Z';
  const [tieLow, tieHigh] = [newId('account'), newId('account')].sort();
  const mine = [
    accountAt(organizationId, '2026-11-20T10:00:00.000Z'),
    accountAt(organizationId, '2026-11-20T11:00:00.000Z'),
    accountAt(organizationId, tie, tieLow),
    accountAt(organizationId, tie, tieHigh),
    accountAt(organizationId, '2026-11-20T13:00:00.000Z'),
  ];
  const newestFirst = [mine[4].id, tieHigh, tieLow, mine[1].id, mine[0].id];
  const useCase = new ListAccountsUseCase(
    new InMemoryAccountRepository([...mine, accountAt(otherOrganizationId, '2026-11-20T14:00:00.000Z')]),
    codec,
  );

  async function page(limit: number, cursor: string | null): Promise<PageView<AccountView>> {
    return useCase.execute({ organizationId, page: { limit, cursor } });
  }

  it('returns at most `limit` accounts, newest first, with a cursor when more follow', async () => {
    const first = await page(2, null);

    expect(first.data.map((account) => account.accountId)).toEqual(newestFirst.slice(0, 2));
    expect(first.hasMore).toBe(true);
    expect(first.nextCursor).toEqual(expect.any(String));
  });

  it('walks every account once through the cursors, ending with hasMore false and no cursor', async () => {
    const seen: string[] = [];
    const pages: Array<PageView<AccountView>> = [];
    let cursor: string | null = null;
    do {
      const next: PageView<AccountView> = await page(2, cursor);
      pages.push(next);
      seen.push(...next.data.map((account) => account.accountId));
      cursor = next.nextCursor;
    } while (cursor);

    expect(seen).toEqual(newestFirst);
    expect(pages.map((p) => [p.data.length, p.hasMore])).toEqual([
      [2, true],
      [2, true],
      [1, false],
    ]);
    expect(pages[2].nextCursor).toBeNull();
  });

  it('says hasMore false when the page holds exactly the rest', async () => {
    const all = await page(5, null);
    expect(all.data).toHaveLength(5);
    expect(all.hasMore).toBe(false);
    expect(all.nextCursor).toBeNull();
  });

  it('lists nothing for an organization without accounts', async () => {
    await expect(useCase.execute({ organizationId: newId('organization'), page: { limit: 25, cursor: null } })).resolves.toEqual({
      data: [],
      hasMore: false,
      nextCursor: null,
    });
  });

  it('rejects a cursor from another list, a tampered one and one signed elsewhere with invalid_request', async () => {
    const { nextCursor } = await page(2, null);
    const fromAnotherList = codec.encode('transactions', { createdAt: '2026-11-20T13:00:00.000Z', id: mine[4].id });
    const [body, signature] = (nextCursor as string).split('.');
    const tamperedBody = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString('utf8')), i: 'acct_ffffffffffffffffffffffffffffffff' }),
    ).toString('base64url');
    const foreignSecret = new CursorCodec('another-secret').encode('accounts', { createdAt: '2026-11-20T13:00:00.000Z', id: mine[4].id });

    for (const cursor of [fromAnotherList, `${tamperedBody}.${signature}`, foreignSecret, 'not-a-cursor']) {
      const error = await page(2, cursor).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe('invalid_request');
      expect((error as DomainError).message).toContain('cursor');
    }
  });
});
