import { randomUUID } from 'node:crypto';
import { Big } from '@pfs/contracts';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { createSchemaDatabase, eventually, isolateQueues, ledgerInvariantViolations, testDatabaseUrl } from '@pfs/testing';
import { send, type Answer } from '../support/http-client';
import { startE2eStack, type CreatedOrganization, type E2eStack } from '../e2e/support/e2e-stack';

const queuePrefix = isolateQueues('gw-e2e-ledger-db');

/*
 * Every service owns its schema and reads no other's, so each can live in a database of its own:
 * here the ledger runs on a second database (on the same server), migrated for its schema alone,
 * while the organization and quote services share the first. Signing up, funding, quoting and
 * executing work end to end, the ledger's rows are all in its own database, none are in the
 * other, and its database has no other service's schema.
 */
describe('the ledger on a database of its own (end to end)', () => {
  let e2e: E2eStack;
  let ledgerDatabaseUrl: string;
  let shared: PrismaClient;
  let ledger: PrismaClient;
  let org: CreatedOrganization;

  const post = (path: string, body?: Record<string, unknown>): Promise<Answer> =>
    send(e2e.baseUrl, path, { method: 'POST', key: org.apiKey, ...(body ? { body } : {}), headers: { 'Idempotency-Key': randomUUID() } });

  beforeAll(async () => {
    // Made as `run stack` makes one: the migrations of the ledger's schema alone.
    ledgerDatabaseUrl = await createSchemaDatabase(testDatabaseUrl(), ['ledger']);
    e2e = await startE2eStack(queuePrefix, {}, {
      apps: ['organization-service', 'ledger-service', 'quote-service'],
      envByApp: { 'ledger-service': { DATABASE_URL: ledgerDatabaseUrl } },
    });
    shared = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 1, applicationName: 'gateway-e2e-ledger-db-shared' });
    ledger = createPrismaClient({ databaseUrl: ledgerDatabaseUrl, poolSize: 1, applicationName: 'gateway-e2e-ledger-db-ledger' });
  }, 120000);

  afterAll(async () => {
    await shared?.$disconnect();
    await ledger?.$disconnect();
    await e2e?.stop();
  }, 60000);

  it('signs up, funds, quotes and executes, with every ledger row in the ledger’s database', async () => {
    expect(ledgerDatabaseUrl).not.toBe(testDatabaseUrl());
    org = await e2e.createOrganization('e2e ledger database');
    await eventually(async () => (await ledger.ledgerAccount.findUnique({ where: { id: org.accountId }, select: { id: true } }))?.id, 15000);
    expect((await post('/v1/funding-methods', { asset: 'USDC' })).status).toBe(200);
    const funded = await post('/v1/transactions/faucet', { accountId: org.accountId, asset: 'USDC', amount: '50', chainName: 'ETHEREUM_SEPOLIA' });
    expect(funded.status).toBe(200);
    const quote = await post('/v1/quotes', { accountId: org.accountId, fromAsset: 'USDC', toAsset: 'USD', fromAmount: '10' });
    expect(quote.status).toBe(201);
    const { quoteId } = quote.json<{ quoteId: string }>();
    const executed = await post(`/v1/quotes/${quoteId}/execute`);
    expect(executed.status).toBe(200);
    const { transactionId } = executed.json<{ transactionId: string }>();

    const account = await send(e2e.baseUrl, `/v1/accounts/${org.accountId}`, { key: org.apiKey });
    expect(account.status).toBe(200);
    const usdc = account.json<{ balances: Array<{ asset: string; amount: string }> }>().balances.find((balance) => balance.asset === 'USDC');
    expect(new Big(usdc?.amount ?? '0').eq(40)).toBe(true);

    // The ledger's rows live in its own database, and nowhere else.
    expect(await ledger.ledgerTransaction.count({ where: { accountId: org.accountId } })).toBe(2);
    expect(await ledger.ledgerTransaction.findUnique({ where: { id: transactionId }, select: { quoteId: true } })).toEqual({ quoteId });
    expect(await shared.ledgerAccount.count({ where: { id: org.accountId } })).toBe(0);
    expect(await shared.ledgerTransaction.count({ where: { accountId: org.accountId } })).toBe(0);
    // The organization and the quote live in the first.
    expect(await shared.organization.count({ where: { id: org.organizationId } })).toBe(1);
    expect(await shared.quote.count({ where: { id: quoteId, status: 'COMPLETED' } })).toBe(1);
    // The ledger's database holds its schema and no other service's.
    const schemas = await ledger.$queryRaw<Array<{ name: string }>>`
      SELECT schema_name AS name FROM information_schema.schemata
      WHERE schema_name IN ('organization', 'ledger', 'quote', 'beneficiary', 'webhook', 'delivery') ORDER BY 1`;
    expect(schemas.map((row) => row.name)).toEqual(['ledger']);
    expect(await ledgerInvariantViolations(ledgerDatabaseUrl)).toEqual([]);
  });
});
