import { Big } from '@pfs/contracts';
import { Account } from './account';

describe('Account', () => {
  const now = new Date('2026-11-21T04:44:09.123Z');

  it('opens a primary account: active, empty, created and updated now', () => {
    const account = Account.openPrimary('acct_0123456789abcdef0123456789abcdef', 'org_0123456789abcdef0123456789abcdef', now);

    expect(account).toEqual(
      new Account(
        'acct_0123456789abcdef0123456789abcdef',
        'org_0123456789abcdef0123456789abcdef',
        'Primary account',
        null,
        true,
        'ACTIVE',
        [],
        [],
        now,
        now,
      ),
    );
    expect(account.isPrimary).toBe(true);
    expect(account.status).toBe('ACTIVE');
    expect(account.balances).toEqual([]);
    expect(account.fundingMethods).toEqual([]);
  });

  it('belongs to its own organization only', () => {
    const account = new Account('acct_a', 'org_a', 'Ops', null, false, 'ACTIVE', [{ asset: 'USD', amount: new Big('1') }], [], now, now);

    expect(account.belongsTo('org_a')).toBe(true);
    expect(account.belongsTo('org_b')).toBe(false);
    expect(account.belongsTo('')).toBe(false);
  });
});
