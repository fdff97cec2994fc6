import { Client } from 'pg';
import { Big, EventOutbox, IdGenerator, newId, UnitOfWork, type TransactionView } from '@pfs/contracts';
import { RemoteDomainError } from '@pfs/messaging';
import { isolateQueues, ledgerInvariantViolations, startServiceUnderTest, statementsDuring, testDatabaseUrl, writesOf, type ServiceUnderTest } from '@pfs/testing';
import { ManualClock } from '@pfs/test-doubles';
import { Journal } from '../src/application/ports/journal';
import { LedgerSettings } from '../src/application/ports/ledger-settings';
import { PayoutRails } from '../src/application/ports/payout-rail';
import { TransactionRepository } from '../src/application/ports/transaction.repository';
import { OpenPrimaryAccountUseCase } from '../src/application/use-cases/open-primary-account/open-primary-account.use-case';
import { SettlePayoutsUseCase } from '../src/application/use-cases/settle-payouts/settle-payouts.use-case';
import { InMemoryBeneficiaryDirectory } from './support/in-memory/in-memory-beneficiary-directory';
import { InMemoryOrganizationDirectory } from './support/in-memory/in-memory-organization-directory';
import { InMemoryServicenetDirectory } from './support/in-memory/in-memory-servicenet-directory';
import { LedgerWithDirectoryModule } from './support/ledger-with-directory.module';

isolateQueues('ledger-money');
process.env.PAYOUT_FEES = 'CRYPTO:USDC=0.5';
// The sandbox rails' own moves are driven by hand here (see the settlement tests below).
process.env.SANDBOX_AUTO_SETTLE = 'false';
// No cap on the faucet: the amounts the books cannot hold reach the ledger through it (below).
process.env.FAUCET_MAX_AMOUNT = `1${'0'.repeat(30)}`;

// Hundreds of commands on two balance rows in one test: seconds on an idle machine, minutes on a
// busy one, where they queue behind each other's row locks. What the tests assert is exactness and
// the absence of deadlocks, not speed: no deadline a busy machine could reach, and the test's own
// limit only guards against a hang.
const SLOW = { requestId: 'req_00000000000000000000000000000001', timeoutMs: 600_000 };
jest.setTimeout(900_000);

/**
 * The ledger's money commands against the real PostgreSQL and Redis, through its own queue: the
 * balance under concurrency, exactly-once delivery, and what PostgreSQL itself refuses.
 */
describe('ledger money commands (PostgreSQL, Redis)', () => {
  const directory = new InMemoryOrganizationDirectory();
  const beneficiaries = new InMemoryBeneficiaryDirectory();
  const servicenet = new InMemoryServicenetDirectory();
  let service: ServiceUnderTest;
  let db: Client;

  beforeAll(async () => {
    service = await startServiceUnderTest(LedgerWithDirectoryModule.with(directory, beneficiaries, undefined, servicenet));
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await service?.close();
  });

  /** An approved organization with its primary account, USDC activated on it and a crypto beneficiary. */
  async function organization(): Promise<{ organizationId: string; accountId: string }> {
    const organizationId = newId('organization');
    const accountId = newId('account');
    directory.set({ organizationId, verificationStatus: 'APPROVED' });
    beneficiaryOf.set(organizationId, beneficiaries.crypto({ organizationId, accountId }));
    await service.app.get(OpenPrimaryAccountUseCase).execute({ organizationId, accountId });
    await service.bus.send('ledger', 'funding-methods.provision', { organizationId, accountId, asset: 'USDC' }, SLOW);
    return { organizationId, accountId };
  }

  const faucet = (org: { organizationId: string; accountId: string }, amount: string, commandId?: string) =>
    service.bus.send('ledger', 'faucet.credit', { ...org, asset: 'USDC', amount, chainName: 'ETHEREUM_SEPOLIA' }, { ...SLOW, commandId });

  const beneficiaryOf = new Map<string, string>();
  const payout = (org: { organizationId: string; accountId: string }, amount: string, commandId?: string) =>
    service.bus.send(
      'ledger',
      'payouts.create',
      { ...org, rail: 'CRYPTO', asset: 'USDC', amount, beneficiaryId: beneficiaryOf.get(org.organizationId)!, reference: null },
      { ...SLOW, commandId },
    );

  async function balance(accountId: string): Promise<string> {
    const { rows } = await db.query<{ amount: string }>(`SELECT amount::text AS amount FROM "ledger"."balances" WHERE account_id = $1 AND asset = 'USDC'`, [accountId]);
    return new Big(rows[0]?.amount ?? '0').toFixed();
  }

  async function count(sql: string, params: unknown[]): Promise<number> {
    const { rows } = await db.query<{ n: string }>(sql, params);
    return Number(rows[0]!.n);
  }

  it('200 concurrent credits and debits on one account leave the exact balance and never go below zero', async () => {
    const org = await organization();
    // 100 credits of 2 and 100 payouts of 2.5 + 0.5 fee, all at once: a payout finding the
    // balance short is refused, every other one holds exactly 3.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 200 }, (_, index) => (index % 2 === 0 ? faucet(org, '2') : payout(org, '2.5'))),
    );
    const credits = outcomes.filter((outcome, index) => index % 2 === 0 && outcome.status === 'fulfilled').length;
    const payouts = outcomes.filter((outcome, index) => index % 2 === 1 && outcome.status === 'fulfilled').length;
    const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(credits).toBe(100);
    for (const failure of refused) expect(failure.reason).toMatchObject({ code: 'insufficient_funds' });
    expect(payouts + refused.length).toBe(100);
    expect(payouts).toBeGreaterThan(0);

    const expected = new Big(2).times(100).minus(new Big(3).times(payouts));
    expect(await balance(org.accountId)).toBe(expected.toFixed());
    expect(await count(`SELECT count(*) AS n FROM "ledger"."transactions" WHERE account_id = $1 AND type = 'CRYPTO_PAYOUT'`, [org.accountId])).toBe(payouts);
    // Every line's balance_after, in the order the journal wrote them, is the running sum: never negative.
    const { rows } = await db.query<{ amount: string; balance_after: string }>(
      `SELECT amount::text AS amount, balance_after::text AS balance_after FROM "ledger"."postings" WHERE account_id = $1 ORDER BY id`,
      [org.accountId],
    );
    let running = new Big(0);
    for (const row of rows) {
      running = running.plus(row.amount);
      expect(new Big(row.balance_after).eq(running)).toBe(true);
      expect(running.gte(0)).toBe(true);
    }
    expect(await ledgerInvariantViolations(testDatabaseUrl())).toEqual([]);
  });

  it('100 concurrent transfers each way between two organizations (200 in flight): every one posts, none deadlocks, the balances end exact', async () => {
    const [dave, erin] = [await organization(), await organization()];
    for (const org of [dave, erin]) servicenet.enabled.add(org.organizationId);
    await Promise.all([faucet(dave, '1000'), faucet(erin, '1000')]);
    const toErin = beneficiaries.servicenet(dave, erin);
    const toDave = beneficiaries.servicenet(erin, dave);
    const transfer = (from: { organizationId: string; accountId: string }, beneficiaryId: string, amount: string) =>
      service.bus.send('ledger', 'transfers.create', { ...from, beneficiaryId, asset: 'USDC', amount, reference: null }, SLOW);
    // Each takes both accounts' balance rows, in opposite orders for the two directions.
    const outcomes = await Promise.allSettled(Array.from({ length: 100 }, () => [transfer(dave, toErin, '1.25'), transfer(erin, toDave, '0.75')]).flat());
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);

    // Dave: 1000 − 100 × 1.25 + 100 × 0.75 = 950; Erin: 1000 + 100 × 1.25 − 100 × 0.75 = 1050.
    expect(await balance(dave.accountId)).toBe('950');
    expect(await balance(erin.accountId)).toBe('1050');
    for (const org of [dave, erin]) {
      for (const role of ['SENDER', 'RECEIVER']) {
        expect(
          await count(`SELECT count(*) AS n FROM "ledger"."transactions" WHERE account_id = $1 AND type = 'INTERNAL_TRANSFER' AND role = $2 AND status = 'COMPLETED'`, [org.accountId, role]),
        ).toBe(100);
      }
    }
    expect(await ledgerInvariantViolations(testDatabaseUrl())).toEqual([]);
  });

  it('a payout and a transfer each write in one statement, after their reads, with no transaction of their own', async () => {
    const [frank, grace] = [await organization(), await organization()];
    for (const org of [frank, grace]) servicenet.enabled.add(org.organizationId);
    await faucet(frank, '100');
    const toGrace = beneficiaries.servicenet(frank, grace);
    const paid = await statementsDuring(() => payout(frank, '10'), { requestId: SLOW.requestId });
    const moved = await statementsDuring(
      () => service.bus.send('ledger', 'transfers.create', { ...frank, beneficiaryId: toGrace, asset: 'USDC', amount: '5', reference: null }, SLOW),
      { requestId: SLOW.requestId },
    );
    for (const sent of [paid, moved]) {
      expect(writesOf(sent, 'ledger')).toEqual(['WITH w0 AS']);
      expect(sent.length).toBeLessThanOrEqual(8);
    }
    // 100 − 10 − the crypto payout fee − 5.
    expect(new Big(await balance(frank.accountId)).lt('85')).toBe(true);
    expect(await balance(grace.accountId)).toBe('5');
    expect(await ledgerInvariantViolations(testDatabaseUrl())).toEqual([]);
  });

  it('a command delivered twice, or twenty times at once, with one command id posts once and answers the same transaction', async () => {
    const org = await organization();
    const commandId = newId('command');
    const first = await faucet(org, '7.25', commandId);
    const again = await faucet(org, '7.25', commandId);
    expect(again).toEqual(first);
    const concurrentId = newId('command');
    const answers = await Promise.all(Array.from({ length: 20 }, () => faucet(org, '1', concurrentId)));
    expect(new Set(answers.map((answer: TransactionView) => answer.transactionId)).size).toBe(1);
    expect(await balance(org.accountId)).toBe('8.25');
    expect(await count(`SELECT count(*) AS n FROM "ledger"."journals" j JOIN "ledger"."transactions" t ON t.id = j.transaction_id WHERE t.account_id = $1`, [org.accountId])).toBe(2);
    expect(
      await count(`SELECT count(*) AS n FROM "ledger"."outbox_events" WHERE type = 'transaction.status.updated' AND payload->'data'->>'account_id' = $1`, [org.accountId]),
    ).toBe(2);
  });

  it('a faucet credit reads no command log first; its repeat meets the first claim, and one refused only now gets the first answer', async () => {
    const org = await organization();
    const commandId = newId('command');
    let first: TransactionView | undefined;
    const sent = await statementsDuring(async () => {
      first = await faucet(org, '3', commandId);
    }, { requestId: SLOW.requestId });
    expect(sent.filter((text) => text.startsWith('SELECT command_id,'))).toEqual([]);
    expect(await faucet(org, '3', commandId)).toEqual(first);
    // The account can no longer receive: a new credit is refused, the repeat still answered as first.
    await db.query(`UPDATE "ledger"."accounts" SET status = 'SUSPENDED' WHERE id = $1`, [org.accountId]);
    await expect(faucet(org, '3')).rejects.toMatchObject({ code: 'invalid_request' });
    expect(await faucet(org, '3', commandId)).toEqual(first);
    expect(await balance(org.accountId)).toBe('3');
  });

  it('a payout repeated with its command id holds once, even after the balance changed', async () => {
    const org = await organization();
    await faucet(org, '10');
    const commandId = newId('command');
    const held = await payout(org, '4', commandId);
    await faucet(org, '1');
    expect(await payout(org, '4', commandId)).toEqual(held);
    expect(await balance(org.accountId)).toBe('6.5');
  });

  it('a refused command changes nothing and may be retried with the same id once the balance allows', async () => {
    const org = await organization();
    const commandId = newId('command');
    await expect(payout(org, '1', commandId)).rejects.toBeInstanceOf(RemoteDomainError);
    await faucet(org, '5');
    expect(await payout(org, '1', commandId)).toMatchObject({ status: 'EXPECTED' });
    expect(await balance(org.accountId)).toBe('3.5');
  });

  it('sandbox moves post their entries: lock, complete, then refund returns the payout with its fee', async () => {
    const org = await organization();
    await faucet(org, '20');
    const { transactionId } = await payout(org, '5');
    const move = (action: 'lock' | 'complete' | 'decline' | 'refund') =>
      service.bus.send('ledger', 'transactions.advance', { organizationId: org.organizationId, transactionId, action }, SLOW);
    await move('lock');
    await expect(move('lock')).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('is LOCKED') });
    await move('complete');
    expect(await balance(org.accountId)).toBe('14.5');
    expect(await move('refund')).toMatchObject({ status: 'REFUNDED' });
    expect(await balance(org.accountId)).toBe('20');
    const { rows } = await db.query<{ previous: string; status: string }>(
      `SELECT payload->'data'->>'previous_status' AS previous, payload->'data'->>'status' AS status FROM "ledger"."outbox_events"
       WHERE type = 'transaction.status.updated' AND payload->'data'->>'transaction_id' = $1 ORDER BY created_at, (payload->>'sequence')::int`,
      [transactionId],
    );
    expect(rows.map((row) => `${row.previous}→${row.status}`)).toEqual(['EXPECTED→LOCKED', 'LOCKED→COMPLETED', 'COMPLETED→REFUNDED']);
  });

  describe('the sandbox rails settling by themselves (two replicas at once)', () => {
    /** A settlement pass as one replica runs it, with the service's adapters and a clock of the test's. */
    const replica = (clock: ManualClock) =>
      new SettlePayoutsUseCase(
        service.app.get(UnitOfWork),
        service.app.get(TransactionRepository),
        service.app.get(Journal),
        directory,
        service.app.get(PayoutRails),
        service.app.get(EventOutbox),
        service.app.get(LedgerSettings),
        service.app.get(IdGenerator),
        clock,
      );
    const moves = async (transactionId: string) =>
      (
        await db.query<{ previous: string; status: string }>(
          `SELECT payload->'data'->>'previous_status' AS previous, payload->'data'->>'status' AS status FROM "ledger"."outbox_events"
           WHERE type = 'transaction.status.updated' AND payload->'data'->>'transaction_id' = $1 ORDER BY (payload->>'sequence')::int`,
          [transactionId],
        )
      ).rows.map((row) => `${row.previous}→${row.status}`);

    it('moves a due payout exactly one step per due period, however many passes run at once', async () => {
      const org = await organization();
      await faucet(org, '20');
      const created: TransactionView = await payout(org, '5');
      const delay = service.app.get(LedgerSettings).sandboxSettleDelayMs;
      // Not due yet: a moment before the delay has passed, nothing moves.
      const clock = new ManualClock(new Date(Date.parse(created.updatedAt) + delay - 1));
      await Promise.all([replica(clock).execute(), replica(clock).execute()]);
      expect(await moves(created.transactionId)).toEqual([]);

      clock.advance(1);
      await Promise.all([replica(clock).execute(), replica(clock).execute(), replica(clock).execute()]);
      expect(await moves(created.transactionId)).toEqual(['EXPECTED→LOCKED']);
      await Promise.all([replica(clock).execute(), replica(clock).execute()]);
      expect(await moves(created.transactionId)).toEqual(['EXPECTED→LOCKED']);

      clock.advance(delay);
      await Promise.all([replica(clock).execute(), replica(clock).execute(), replica(clock).execute()]);
      expect(await moves(created.transactionId)).toEqual(['EXPECTED→LOCKED', 'LOCKED→COMPLETED']);
      clock.advance(delay);
      await Promise.all([replica(clock).execute(), replica(clock).execute()]);
      expect(await moves(created.transactionId)).toEqual(['EXPECTED→LOCKED', 'LOCKED→COMPLETED']);
      // 20 − (5 + 0.5 fee) left; the hold went out: 5 to external payouts, 0.5 earned.
      expect(await balance(org.accountId)).toBe('14.5');
      expect(await ledgerInvariantViolations(testDatabaseUrl())).toEqual([]);
    });
  });

  describe('amounts the books cannot hold (numeric(38, 18)), however they got past the gateway', () => {
    /** The command's refusal as it came back: a domain error, answered at once rather than failed and retried. */
    const refusal = (command: Promise<unknown>) =>
      command.then(
        () => {
          throw new Error('the command succeeded');
        },
        (error: unknown) => {
          expect(error).toBeInstanceOf(RemoteDomainError);
          return error;
        },
      );
    const payoutRows = (accountId: string) => count(`SELECT count(*) AS n FROM "ledger"."transactions" WHERE account_id = $1 AND type = 'CRYPTO_PAYOUT'`, [accountId]);

    it('a payout whose hold would leave the balance 21 digits below zero is insufficient_funds at once, holding nothing', async () => {
      const org = await organization();
      await faucet(org, '0.1');
      // 0.1 − (99999999999999999999.999999 + 0.5 fee) overflows the balance column before its CHECK is reached.
      expect(await refusal(payout(org, '99999999999999999999.999999'))).toMatchObject({ code: 'insufficient_funds' });
      expect(await balance(org.accountId)).toBe('0.1');
      expect(await payoutRows(org.accountId)).toBe(0);
    });

    it('an amount of 21 digits, or a credit the balance cannot take, is invalid_request at once, writing nothing', async () => {
      const org = await organization();
      expect(await refusal(faucet(org, `1${'0'.repeat(20)}`))).toMatchObject({
        code: 'invalid_request',
        message: 'amount: an amount of this request would be more than the ledger holds (at most 20 digits before the decimal point).',
      });
      const largest = '9'.repeat(20);
      await faucet(org, largest);
      expect(await refusal(faucet(org, '1'))).toMatchObject({
        code: 'invalid_request',
        message: `amount: the USDC balance of account ${org.accountId} would be more than the ledger holds (at most 20 digits before the decimal point).`,
      });
      expect(await balance(org.accountId)).toBe(largest);
      expect(await count(`SELECT count(*) AS n FROM "ledger"."transactions" WHERE account_id = $1`, [org.accountId])).toBe(1);
      expect(await ledgerInvariantViolations(testDatabaseUrl())).toEqual([]);
    });
  });

  describe('what PostgreSQL itself refuses, whatever the code does', () => {
    it('a negative customer balance', async () => {
      const org = await organization();
      await faucet(org, '1');
      await expect(db.query(`UPDATE "ledger"."balances" SET amount = -1 WHERE account_id = $1`, [org.accountId])).rejects.toThrow(/balances_amount_not_negative/);
    });

    it('a journal entry that does not balance, at COMMIT', async () => {
      const org = await organization();
      const { transactionId } = await faucet(org, '1');
      const journalId = newId('journal');
      await db.query('BEGIN');
      try {
        await db.query(`INSERT INTO "ledger"."journals" (id, kind) VALUES ($1, 'TEST')`, [journalId]);
        await db.query(`INSERT INTO "ledger"."postings" (journal_id, account_id, asset, amount, balance_after, transaction_id) VALUES ($1, $2, 'USDC', 5, 5, $3)`, [
          journalId,
          org.accountId,
          transactionId,
        ]);
        await expect(db.query('COMMIT')).rejects.toThrow(/does not balance/);
      } finally {
        await db.query('ROLLBACK').catch(() => undefined);
      }
    });

    it('a customer line on a transaction of another account', async () => {
      const [mine, theirs] = [await organization(), await organization()];
      const { transactionId } = await faucet(theirs, '1');
      const journalId = newId('journal');
      await db.query('BEGIN');
      try {
        await db.query(`INSERT INTO "ledger"."journals" (id, kind, transaction_id) VALUES ($1, 'TEST', $2)`, [journalId, transactionId]);
        await expect(
          db.query(`INSERT INTO "ledger"."postings" (journal_id, account_id, asset, amount, balance_after, transaction_id) VALUES ($1, $2, 'USDC', 1, 1, $3)`, [
            journalId,
            mine.accountId,
            transactionId,
          ]),
        ).rejects.toThrow(/postings_transaction_id_account_id_fkey/);
      } finally {
        await db.query('ROLLBACK');
      }
    });

    it('an edit or a deletion of the journal', async () => {
      const org = await organization();
      await faucet(org, '1');
      await expect(db.query(`UPDATE "ledger"."postings" SET amount = 2 WHERE account_id = $1`, [org.accountId])).rejects.toThrow(/append-only/);
      await expect(db.query(`DELETE FROM "ledger"."postings" WHERE account_id = $1`, [org.accountId])).rejects.toThrow(/append-only/);
    });
  });
});
