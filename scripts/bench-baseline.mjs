// The yardstick for `pnpm bench`: a bare Fastify + pg process doing the same read as
// GET /v1/accounts/{id} (account of the caller's organization, its balances and funding
// methods), with no gateway, queue or service in between.
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });
const organizationId = process.env.BENCH_ORGANIZATION_ID;

app.get('/v1/accounts/:accountId', async (request, reply) => {
  const { accountId } = request.params;
  const account = await pool.query('SELECT * FROM ledger.accounts WHERE id = $1', [accountId]);
  const row = account.rows[0];
  if (!row || row.organization_id !== organizationId) {
    return reply.code(404).send({ error: { code: 'account_not_found', message: 'not found', requestId: 'req_0' } });
  }
  const [balances, methods] = await Promise.all([
    pool.query('SELECT asset, amount FROM ledger.balances WHERE account_id = $1 ORDER BY asset', [accountId]),
    pool.query('SELECT * FROM ledger.funding_methods WHERE account_id = $1 ORDER BY created_at, id', [accountId]),
  ]);
  return {
    object: 'account',
    accountId: row.id,
    name: row.name,
    description: row.description,
    isPrimary: row.is_primary,
    status: row.status,
    fundingMethods: methods.rows,
    balances: balances.rows.map((b) => ({ object: 'balance', asset: b.asset, amount: b.amount })),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.stdout.write('ready\n');
process.on('SIGTERM', async () => {
  await app.close();
  await pool.end();
  process.exit(0);
});
