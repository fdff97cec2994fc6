import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { isolateQueues } from '@pfs/testing';
import { applyMigrations } from '../src';
import { describeDatabase, describePrismaSchema, differences, type SchemaDescription } from './schema-description';
import { createThrowawayDatabase, MIGRATIONS_DIR, SCHEMA_FILE, type ThrowawayDatabase } from './throwaway-database';

isolateQueues('persistence-schema');

// prisma/schema.prisma (what the Prisma client believes) against a database migrated from zero by
// prisma/migrations (what production has). Either side changing alone must fail this file.
const schemaText = readFileSync(SCHEMA_FILE, 'utf8');

describe('schema.prisma and the migrations agree', () => {
  let db: ThrowawayDatabase;
  let client: Client;
  let prisma: SchemaDescription;

  beforeAll(async () => {
    db = await createThrowawayDatabase();
    await applyMigrations(db.url, MIGRATIONS_DIR);
    client = new Client({ connectionString: db.url });
    await client.connect();
    prisma = await describePrismaSchema(schemaText);
  });

  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  /** Runs a change inside a transaction, describes the database as changed, and rolls it back. */
  async function describeAfter(sql: string): Promise<SchemaDescription> {
    await client.query('BEGIN');
    try {
      await client.query(sql);
      return await describeDatabase(client, prisma.schemas);
    } finally {
      await client.query('ROLLBACK');
    }
  }

  it('has the same tables, columns, types, nullability, defaults, keys, indexes and foreign keys on both sides', async () => {
    const database = await describeDatabase(client, prisma.schemas);
    expect(differences(prisma, database)).toEqual([]);
    // A sanity check that the comparison sees what matters, so "no differences" means something.
    expect(prisma.schemas).toEqual(['beneficiary', 'delivery', 'ledger', 'organization', 'quote', 'webhook']);
    expect(database.lines).toEqual(
      expect.arrayContaining([
        'ledger.balances.amount: numeric(38,18) NOT NULL',
        'ledger.postings.id: bigint NOT NULL DEFAULT',
        'organization.organizations.created_at: timestamp(3) with time zone NOT NULL DEFAULT',
        'organization.organizations.email: text',
        'ledger.accounts.is_primary: boolean NOT NULL',
        'ledger.outbox_events.payload: jsonb NOT NULL',
        'organization.organization_assets: PRIMARY KEY organization_assets_pkey (organization_id, asset_code)',
        'organization.api_keys: UNIQUE api_keys_key_hash_key (key_hash)',
        'ledger.accounts: INDEX accounts_organization_id_created_at_id_idx (organization_id, created_at DESC, id DESC)',
        'ledger.postings: FOREIGN KEY (journal_id) -> ledger.journals (id) ON DELETE RESTRICT ON UPDATE CASCADE',
      ]),
    );
  });

  it('keeps _prisma_migrations in public and nothing but the models in the service schemas', async () => {
    const { rows } = await client.query<{ schema: string; table: string }>(
      `SELECT table_schema AS schema, table_name AS table FROM information_schema.tables
        WHERE table_schema = ANY($1) OR table_name = '_prisma_migrations'`,
      [prisma.schemas],
    );
    const expected = prisma.lines.filter((line) => line.endsWith(': table')).map((line) => line.replace(/: table$/, ''));
    expect(rows.map((row) => `${row.schema}.${row.table}`).sort()).toEqual([...expected, 'public._prisma_migrations'].sort());
  });

  describe('fails when only one side changes', () => {
    it('a column made optional in schema.prisma', async () => {
      const edited = schemaText.replace(/^(\s+name\s+)String(\s)/m, '$1String?$2');
      expect(edited).not.toBe(schemaText);
      const found = differences(await describePrismaSchema(edited), await describeDatabase(client, prisma.schemas));
      expect(found).toEqual(['schema.prisma only: organization.organizations.name: text', 'database only: organization.organizations.name: text NOT NULL']);
    });

    it('a decimal scale changed in schema.prisma', async () => {
      const edited = schemaText.replace('@db.Decimal(38, 18)', '@db.Decimal(38, 8)');
      const found = differences(await describePrismaSchema(edited), await describeDatabase(client, prisma.schemas));
      expect(found).toContain('schema.prisma only: ledger.balances.amount: numeric(38,8) NOT NULL');
    });

    it('an index dropped from schema.prisma', async () => {
      const edited = schemaText.replace(/^\s*@@index\(\[journalId\]\)\n/m, '');
      expect(edited).not.toBe(schemaText);
      const found = differences(await describePrismaSchema(edited), await describeDatabase(client, prisma.schemas));
      expect(found).toEqual(['database only: ledger.postings: INDEX postings_journal_id_idx (journal_id)']);
    });

    it('a sort order changed in schema.prisma', async () => {
      const edited = schemaText.replace('@@index([organizationId, createdAt(sort: Desc), id(sort: Desc)])', '@@index([organizationId, createdAt(sort: Desc), id])');
      expect(edited).not.toBe(schemaText);
      const found = differences(await describePrismaSchema(edited), await describeDatabase(client, prisma.schemas));
      expect(found).toContain('database only: ledger.accounts: INDEX accounts_organization_id_created_at_id_idx (organization_id, created_at DESC, id DESC)');
    });

    it('a column added by a migration only', async () => {
      const found = differences(prisma, await describeAfter('ALTER TABLE "ledger"."accounts" ADD COLUMN "nickname" TEXT'));
      expect(found).toEqual(['database only: ledger.accounts.nickname: text']);
    });

    it('a column type changed by a migration only', async () => {
      const found = differences(prisma, await describeAfter('ALTER TABLE "ledger"."postings" ALTER COLUMN "amount" TYPE DECIMAL(30,8)'));
      expect(found).toEqual(['schema.prisma only: ledger.postings.amount: numeric(38,18) NOT NULL', 'database only: ledger.postings.amount: numeric(30,8) NOT NULL']);
    });

    it('a default dropped by a migration only', async () => {
      const found = differences(prisma, await describeAfter('ALTER TABLE "quote"."outbox_events" ALTER COLUMN "created_at" DROP DEFAULT'));
      expect(found).toEqual([
        'schema.prisma only: quote.outbox_events.created_at: timestamp(3) with time zone NOT NULL DEFAULT',
        'database only: quote.outbox_events.created_at: timestamp(3) with time zone NOT NULL',
      ]);
    });

    it('an index dropped or a unique constraint added by a migration only', async () => {
      const dropped = differences(prisma, await describeAfter('DROP INDEX "ledger"."postings_journal_id_idx"'));
      expect(dropped).toEqual(['schema.prisma only: ledger.postings: INDEX postings_journal_id_idx (journal_id)']);
      const added = differences(prisma, await describeAfter('CREATE UNIQUE INDEX "accounts_name_key" ON "ledger"."accounts"("name")'));
      expect(added).toEqual(['database only: ledger.accounts: UNIQUE accounts_name_key (name)']);
    });

    it('a stray table in a service schema', async () => {
      const found = differences(prisma, await describeAfter('CREATE TABLE "webhook"."stray" ("id" TEXT NOT NULL)'));
      expect(found).toEqual(['database only: webhook.stray.id: text NOT NULL', 'database only: webhook.stray: table']);
    });

    it('a foreign key action changed by a migration only', async () => {
      const found = differences(
        prisma,
        await describeAfter(`ALTER TABLE "ledger"."postings" DROP CONSTRAINT "postings_journal_id_fkey";
          ALTER TABLE "ledger"."postings" ADD CONSTRAINT "postings_journal_id_fkey" FOREIGN KEY ("journal_id") REFERENCES "ledger"."journals"("id") ON DELETE CASCADE ON UPDATE CASCADE`),
      );
      expect(found).toEqual([
        'schema.prisma only: ledger.postings: FOREIGN KEY (journal_id) -> ledger.journals (id) ON DELETE RESTRICT ON UPDATE CASCADE',
        'database only: ledger.postings: FOREIGN KEY (journal_id) -> ledger.journals (id) ON DELETE CASCADE ON UPDATE CASCADE',
      ]);
    });
  });
});
