import { ledgerInMemory } from '../../../../test/support/in-memory/ledger-in-memory.kit';

describe('OpenAccountUseCase (in memory)', () => {
  it('opens a non-primary ACTIVE account with no balances', async () => {
    const ledger = ledgerInMemory();
    const org = await ledger.organization();
    const account = await ledger.openAccount.execute({ organizationId: org.organizationId, name: 'Treasury', description: 'Settlement float' });
    expect(account).toMatchObject({ object: 'account', name: 'Treasury', description: 'Settlement float', isPrimary: false, status: 'ACTIVE', balances: [], fundingMethods: [] });
    expect(account.accountId).not.toBe(org.accountId);
    expect(await ledger.accounts.findOwnership(account.accountId)).toEqual({ organizationId: org.organizationId, status: 'ACTIVE' });
  });
});
