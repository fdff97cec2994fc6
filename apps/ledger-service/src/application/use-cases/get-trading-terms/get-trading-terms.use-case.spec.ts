import { Account } from '../../../domain/account';
import { ledgerInMemory } from '../../../../test/support/in-memory/ledger-in-memory.kit';

describe('GetTradingTermsUseCase (in memory)', () => {
  it('answers the account’s status and the pricing GET /v1/fees shows, default or the tier’s', async () => {
    const ledger = ledgerInMemory();
    const org = await ledger.organization();
    expect(await ledger.getTradingTerms.execute(org)).toEqual({ accountStatus: 'ACTIVE', spreadBps: 100, referrerShareBps: 0 });
    ledger.directory.setTier(org.organizationId, { key: 'vip', label: 'VIP', spreadBps: 30, referrerShareBps: 30 });
    expect(await ledger.getTradingTerms.execute(org)).toEqual({ accountStatus: 'ACTIVE', spreadBps: 30, referrerShareBps: 30 });
    const fees = await ledger.getFees.execute({ organizationId: org.organizationId });
    expect({ spreadBps: fees.spreadBps, referrerShareBps: fees.referrerShareBps }).toEqual({ spreadBps: 30, referrerShareBps: 30 });
  });

  it('answers a suspended account’s status, and no status for another organization’s account or none', async () => {
    const ledger = ledgerInMemory();
    const org = await ledger.organization();
    const other = await ledger.organization();
    const now = new Date('2026-11-26T10:00:00.000Z');
    ledger.accounts.accounts.push(new Account('acct_suspended', org.organizationId, 'Held', null, false, 'SUSPENDED', [], [], now, now));
    expect(await ledger.getTradingTerms.execute({ organizationId: org.organizationId, accountId: 'acct_suspended' })).toMatchObject({ accountStatus: 'SUSPENDED' });
    expect(await ledger.getTradingTerms.execute({ organizationId: other.organizationId, accountId: org.accountId })).toMatchObject({ accountStatus: null });
    expect(await ledger.getTradingTerms.execute({ organizationId: org.organizationId, accountId: 'acct_missing' })).toMatchObject({ accountStatus: null });
  });
});
