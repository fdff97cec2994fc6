import { Account } from '../../../domain/account';
import { ledgerInMemory } from '../../../../test/support/in-memory/ledger-in-memory.kit';

describe('GetAccountHolderUseCase (in memory)', () => {
  it('answers which organization holds an account and its status, whoever asks; null for none', async () => {
    const ledger = ledgerInMemory();
    const org = await ledger.organization();
    expect(await ledger.getAccountHolder.execute({ accountId: org.accountId })).toEqual({ accountId: org.accountId, organizationId: org.organizationId, status: 'ACTIVE' });
    const now = new Date('2026-11-26T10:00:00.000Z');
    ledger.accounts.accounts.push(new Account('acct_suspended', org.organizationId, 'Held', null, false, 'SUSPENDED', [], [], now, now));
    expect(await ledger.getAccountHolder.execute({ accountId: 'acct_suspended' })).toEqual({ accountId: 'acct_suspended', organizationId: org.organizationId, status: 'SUSPENDED' });
    expect(await ledger.getAccountHolder.execute({ accountId: 'acct_missing' })).toBeNull();
  });
});
