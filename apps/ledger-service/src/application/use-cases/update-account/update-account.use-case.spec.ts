import { ledgerInMemory, type LedgerInMemory } from '../../../../test/support/in-memory/ledger-in-memory.kit';

describe('UpdateAccountUseCase (in memory)', () => {
  let ledger: LedgerInMemory;
  let org: { organizationId: string; accountId: string };

  beforeEach(async () => {
    ledger = ledgerInMemory();
    org = await ledger.organization();
  });

  it('renames, keeps what is left out, clears a description with null', async () => {
    ledger.clock.advance(5000);
    const renamed = await ledger.updateAccount.execute({ ...org, name: 'Operations', description: 'Day to day' });
    expect(renamed).toMatchObject({ name: 'Operations', description: 'Day to day', isPrimary: true, updatedAt: ledger.clock.now().toISOString() });
    expect(await ledger.updateAccount.execute({ ...org, description: null })).toMatchObject({ name: 'Operations', description: null });
    expect(await ledger.updateAccount.execute({ ...org, name: 'Ops' })).toMatchObject({ name: 'Ops', description: null });
  });

  it('answers account_not_found for another organization’s account', async () => {
    const other = await ledger.organization();
    await expect(ledger.updateAccount.execute({ organizationId: other.organizationId, accountId: org.accountId, name: 'Mine' })).rejects.toMatchObject({
      code: 'account_not_found',
    });
  });
});
