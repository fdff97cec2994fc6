import { Writable } from 'node:stream';
import { Client } from 'pg';
import { Big, DomainError, newId, UnitOfWork } from '@pfs/contracts';
import { createLogger } from '@pfs/platform';
import { isolateQueues, startServiceUnderTest, testDatabaseUrl, type ServiceUnderTest } from '@pfs/testing';
import { Journal } from '../src/application/ports/journal';
import { TransactionRepository } from '../src/application/ports/transaction.repository';
import { OpenPrimaryAccountUseCase } from '../src/application/use-cases/open-primary-account/open-primary-account.use-case';
import { SettlePayoutsUseCase } from '../src/application/use-cases/settle-payouts/settle-payouts.use-case';
import { Transaction } from '../src/domain/transaction';
import { InMemoryBeneficiaryDirectory } from './support/in-memory/in-memory-beneficiary-directory';
import { InMemoryOrganizationDirectory } from './support/in-memory/in-memory-organization-directory';
import { LedgerWithDirectoryModule } from './support/ledger-with-directory.module';

isolateQueues('ledger-production');
process.env.SERVICE_ENV = 'production';
process.env.API_KEY_PEPPER = 'ledger-production-test-pepper';

const SLOW = { requestId: 'req_00000000000000000000000000000002', timeoutMs: 60000 };

/**
 * The ledger booted with SERVICE_ENV=production and the only rail adapters there are, the
 * sandbox's: nothing could ever move a payout (no settlement sweeper, no drive routes), so the
 * ledger refuses every payout before holding anything, refuses the sandbox moves itself, and
 * says at start which rail each asset uses.
 */
describe('the ledger in production with the sandbox rails bound', () => {
  const directory = new InMemoryOrganizationDirectory();
  const beneficiaries = new InMemoryBeneficiaryDirectory();
  const logged: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logged.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  let service: ServiceUnderTest;
  let db: Client;
  let org: { organizationId: string; accountId: string };
  let depositId: string;

  beforeAll(async () => {
    service = await startServiceUnderTest(LedgerWithDirectoryModule.with(directory, beneficiaries, createLogger('ledger', 'info', sink)));
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    // An approved organization holding 100 USDC: in production no faucet, so a deposit written through the journal.
    org = { organizationId: newId('organization'), accountId: newId('account') };
    directory.set({ organizationId: org.organizationId, verificationStatus: 'APPROVED' });
    await service.app.get(OpenPrimaryAccountUseCase).execute(org);
    depositId = newId('transaction');
    await service.app.get(UnitOfWork).run(async () => {
      const now = new Date();
      const deposit = Transaction.settledCryptoDeposit({ id: depositId, ...org, asset: 'USDC', amount: new Big(100), chainName: 'ETHEREUM', journalId: newId('journal'), now });
      await service.app.get(TransactionRepository).insert(deposit.transaction);
      await service.app.get(Journal).post(deposit.entry!, now);
    });
  });

  afterAll(async () => {
    await db?.end();
    await service?.close();
  });

  const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => (error as DomainError).toPayload());
  /** The account's balance, its transactions and every hold ever made on payouts_in_flight for it. */
  const books = async () => ({
    balance: (await db.query<{ amount: string }>(`SELECT amount::text AS amount FROM "ledger"."balances" WHERE account_id = $1 AND asset = 'USDC'`, [org.accountId])).rows.map(
      (row) => new Big(row.amount).toFixed(),
    ),
    transactions: (await db.query<{ id: string; status: string }>(`SELECT id, status FROM "ledger"."transactions" WHERE account_id = $1`, [org.accountId])).rows,
    lines: Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM "ledger"."postings" WHERE account_id = $1`, [org.accountId])).rows[0]?.n),
  });

  it('says at start which rail and adapter each asset uses, and that their payouts are refused', () => {
    const rails = logged.find((line) => line.msg === 'payout rails by asset');
    expect(rails).toMatchObject({ level: 'info', service: 'ledger', environment: 'production' });
    expect(rails?.payoutRails).toEqual([
      { asset: 'USD', rail: 'FIAT', adapter: 'sandbox-bank', payouts: 'refused' },
      { asset: 'EUR', rail: 'FIAT', adapter: 'sandbox-bank', payouts: 'refused' },
      { asset: 'USDC', rail: 'CRYPTO', adapter: 'sandbox-chains', payouts: 'refused' },
      { asset: 'USDT', rail: 'CRYPTO', adapter: 'sandbox-chains', payouts: 'refused' },
      { asset: 'BTC', rail: 'CRYPTO', adapter: 'sandbox-chains', payouts: 'refused' },
      { asset: 'ETH', rail: 'CRYPTO', adapter: 'sandbox-chains', payouts: 'refused' },
    ]);
    expect(logged.find((line) => line.level === 'warn' && String(line.msg).startsWith('no payout rail that moves money'))).toMatchObject({
      refused: ['USD', 'EUR', 'USDC', 'USDT', 'BTC', 'ETH'],
    });
  });

  it('refuses every payout with service_not_enabled before holding anything', async () => {
    const before = await books();
    expect(before).toEqual({ balance: ['100'], transactions: [{ id: depositId, status: 'COMPLETED' }], lines: 1 });
    const wallet = beneficiaries.crypto(org);
    const bank = beneficiaries.bank(org);
    for (const [rail, asset, beneficiaryId] of [
      ['CRYPTO', 'USDC', wallet],
      ['FIAT', 'USD', bank],
    ] as const) {
      const answer = await refusal(service.bus.send('ledger', 'payouts.create', { ...org, rail, asset, amount: '10', beneficiaryId, reference: null }, SLOW));
      expect(answer).toEqual({ code: 'service_not_enabled', message: expect.stringContaining('Nothing was held') });
    }
    expect(await books()).toEqual(before);
  });

  it('refuses the sandbox moves itself: transactions.advance is not_found and the settlement pass does not run', async () => {
    const answer = await refusal(service.bus.send('ledger', 'transactions.advance', { organizationId: org.organizationId, transactionId: depositId, action: 'refund' }, SLOW));
    expect(answer).toEqual({ code: 'not_found', message: expect.stringContaining('only in the sandbox') });
    await expect(service.app.get(SettlePayoutsUseCase).execute()).rejects.toMatchObject({ code: 'not_found' });
    expect(await books()).toEqual({ balance: ['100'], transactions: [{ id: depositId, status: 'COMPLETED' }], lines: 1 });
  });
});
