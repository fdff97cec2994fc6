import { ledgerInMemory, type LedgerInMemory } from '../../../../test/support/in-memory/ledger-in-memory.kit';

describe('GetTransactionUseCase (in memory)', () => {
  let ledger: LedgerInMemory;

  beforeEach(() => {
    ledger = ledgerInMemory();
  });

  it('shows a transaction to its organization only', async () => {
    const org = await ledger.organization({ assets: ['USDC'] });
    const other = await ledger.organization();
    const credited = await ledger.creditFaucet.execute({ ...org, asset: 'USDC', amount: '1', chainName: 'TRON_NILE' });
    expect(await ledger.getTransaction.execute({ organizationId: org.organizationId, transactionId: credited.transactionId })).toEqual(credited);
    await expect(ledger.getTransaction.execute({ organizationId: other.organizationId, transactionId: credited.transactionId })).rejects.toMatchObject({
      code: 'transaction_not_found',
    });
    await expect(ledger.getTransaction.execute({ organizationId: org.organizationId, transactionId: 'txn_ffffffffffffffffffffffffffffffff' })).rejects.toMatchObject({
      code: 'transaction_not_found',
    });
  });
});
