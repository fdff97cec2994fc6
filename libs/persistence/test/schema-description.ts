import { getConfig, getDMMF } from '@prisma/internals';
import type { Client } from 'pg';

/**
 * Both sides of the schema-vs-migrations agreement, described the same way: one sorted line per
 * table, column (type, nullability, whether it has a default), primary key, unique and plain index
 * (name, columns in order, DESC) and foreign key. Equal descriptions mean Prisma's models and
 * the migrated database agree.
 */
export interface SchemaDescription {
  schemas: string[];
  lines: string[];
}

// Prisma's own type for each scalar when no @db attribute says otherwise (PostgreSQL provider).
const DEFAULT_TYPES: Record<string, string> = {
  String: 'text',
  Boolean: 'boolean',
  Int: 'integer',
  BigInt: 'bigint',
  Float: 'double precision',
  Decimal: 'numeric(65,30)',
  DateTime: 'timestamp(3) without time zone',
  Json: 'jsonb',
  Bytes: 'bytea',
};

// @db.<native type>(args) → what PostgreSQL's format_type() prints for it.
const NATIVE_TYPES: Record<string, (args: string[]) => string> = {
  Text: () => 'text',
  VarChar: ([n]) => (n ? `character varying(${n})` : 'character varying'),
  Char: ([n]) => `character(${n ?? 1})`,
  Uuid: () => 'uuid',
  Boolean: () => 'boolean',
  Integer: () => 'integer',
  SmallInt: () => 'smallint',
  BigInt: () => 'bigint',
  DoublePrecision: () => 'double precision',
  Real: () => 'real',
  Decimal: ([p, s]) => (p ? `numeric(${p},${s ?? 0})` : 'numeric'),
  Money: () => 'money',
  Timestamptz: ([p]) => `timestamp(${p ?? 6}) with time zone`,
  Timestamp: ([p]) => `timestamp(${p ?? 6}) without time zone`,
  Date: () => 'date',
  Time: ([p]) => `time(${p ?? 6}) without time zone`,
  JsonB: () => 'jsonb',
  Json: () => 'json',
  ByteA: () => 'bytea',
};

// Defaults Prisma fills in on the client side, so the column has none.
const CLIENT_SIDE_DEFAULTS = new Set(['uuid', 'cuid', 'nanoid', 'ulid']);

/** Prisma's names for constraints and indexes when no `map:` gives one (63-byte identifier limit). */
function prismaName(table: string, columns: string[], suffix: 'pkey' | 'key' | 'idx'): string {
  const base = suffix === 'pkey' ? table : `${table}_${columns.join('_')}`;
  const limit = 63 - suffix.length - 1;
  return `${base.length > limit ? base.slice(0, limit) : base}_${suffix}`;
}

/** What prisma/schema.prisma says the database looks like. */
export async function describePrismaSchema(datamodel: string): Promise<SchemaDescription> {
  const [dmmf, config] = await Promise.all([getDMMF({ datamodel }), getConfig({ datamodel })]);
  const schemas = [...(config.datasources[0]?.schemas ?? ['public'])].sort();
  const enums = new Map(dmmf.datamodel.enums.map((item) => [item.name, item.dbName ?? item.name]));
  const lines: string[] = [];
  const tables = new Map<string, { qualified: string; table: string; columns: Map<string, string> }>();

  for (const model of dmmf.datamodel.models) {
    const schema = model.schema ?? 'public';
    const table = model.dbName ?? model.name;
    const qualified = `${schema}.${table}`;
    const columns = new Map<string, string>();
    tables.set(model.name, { qualified, table, columns });
    lines.push(`${qualified}: table`);
    for (const field of model.fields) {
      if (field.kind === 'object') continue;
      const column = field.dbName ?? field.name;
      columns.set(field.name, column);
      let type: string;
      if (field.kind === 'enum') {
        type = enums.get(field.type) ?? field.type;
      } else if (field.nativeType) {
        const [name, args] = field.nativeType as [string, string[]];
        const native = NATIVE_TYPES[name];
        if (!native) throw new Error(`${model.name}.${field.name}: no PostgreSQL type known for @db.${name}; add it to NATIVE_TYPES`);
        type = native(args);
      } else {
        const mapped = DEFAULT_TYPES[field.type];
        if (!mapped) throw new Error(`${model.name}.${field.name}: no PostgreSQL type known for ${field.type}; add it to DEFAULT_TYPES`);
        type = mapped;
      }
      if (field.isList) type = `${type}[]`;
      const defaultValue = field.default as { name?: string } | undefined;
      const hasDatabaseDefault = field.hasDefaultValue && !(defaultValue?.name && CLIENT_SIDE_DEFAULTS.has(defaultValue.name));
      lines.push(`${qualified}.${column}: ${type}${field.isRequired ? ' NOT NULL' : ''}${hasDatabaseDefault ? ' DEFAULT' : ''}`);
    }
  }

  for (const index of dmmf.datamodel.indexes) {
    const owner = tables.get(index.model);
    if (!owner) continue;
    const columns = index.fields.map((field) => owner.columns.get(field.name) ?? field.name);
    const shown = index.fields.map((field, i) => `${columns[i]}${field.sortOrder === 'desc' ? ' DESC' : ''}`).join(', ');
    if (index.type === 'id') {
      lines.push(`${owner.qualified}: PRIMARY KEY ${index.dbName ?? prismaName(owner.table, columns, 'pkey')} (${shown})`);
    } else if (index.type === 'unique') {
      lines.push(`${owner.qualified}: UNIQUE ${index.dbName ?? prismaName(owner.table, columns, 'key')} (${shown})`);
    } else if (index.type === 'normal') {
      lines.push(`${owner.qualified}: INDEX ${index.dbName ?? prismaName(owner.table, columns, 'idx')} (${shown})`);
    } else {
      throw new Error(`${index.model}: index type ${index.type} is not compared yet`);
    }
  }

  for (const model of dmmf.datamodel.models) {
    const owner = tables.get(model.name)!;
    for (const field of model.fields) {
      if (field.kind !== 'object' || !field.relationFromFields?.length) continue;
      const target = tables.get(field.type)!;
      const from = field.relationFromFields.map((name) => owner.columns.get(name) ?? name);
      const to = (field.relationToFields ?? []).map((name) => target.columns.get(name) ?? name);
      // Prisma's referential actions when the schema names none: Restrict / SetNull, and Cascade on update.
      const onDelete = field.relationOnDelete ?? (field.isRequired ? 'Restrict' : 'SetNull');
      const onUpdate = (field as { relationOnUpdate?: string }).relationOnUpdate ?? 'Cascade';
      lines.push(`${owner.qualified}: FOREIGN KEY (${from.join(', ')}) -> ${target.qualified} (${to.join(', ')}) ON DELETE ${action(onDelete)} ON UPDATE ${action(onUpdate)}`);
    }
  }
  return { schemas, lines: lines.sort() };
}

function action(prismaAction: string): string {
  const actions: Record<string, string> = { Cascade: 'CASCADE', Restrict: 'RESTRICT', NoAction: 'NO ACTION', SetNull: 'SET NULL', SetDefault: 'SET DEFAULT' };
  return actions[prismaAction] ?? prismaAction;
}

const PG_ACTIONS: Record<string, string> = { a: 'NO ACTION', r: 'RESTRICT', c: 'CASCADE', n: 'SET NULL', d: 'SET DEFAULT' };

/**
 * What the migrated database holds in the given schemas, read from pg_catalog. The client may be
 * inside a transaction (the tests mutate the database and roll back).
 */
export async function describeDatabase(client: Client, schemas: string[]): Promise<SchemaDescription> {
  const lines: string[] = [];
  const { rows: present } = await client.query<{ nspname: string }>('SELECT nspname FROM pg_namespace WHERE nspname = ANY($1) ORDER BY nspname', [schemas]);

  const { rows: tables } = await client.query<{ schema: string; table: string; kind: string }>(
    `SELECT n.nspname AS schema, c.relname AS table, c.relkind AS kind
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ANY($1) AND c.relkind IN ('r', 'p', 'v', 'm', 'f')`,
    [schemas],
  );
  for (const row of tables) lines.push(`${row.schema}.${row.table}: ${row.kind === 'r' || row.kind === 'p' ? 'table' : `relation of kind ${row.kind}`}`);

  const { rows: columns } = await client.query<{ schema: string; table: string; column: string; type: string; notnull: boolean; hasdefault: boolean }>(
    `SELECT n.nspname AS schema, c.relname AS table, a.attname AS column,
            format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS notnull, a.atthasdef AS hasdefault
       FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ANY($1) AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped`,
    [schemas],
  );
  for (const row of columns) {
    // An enum type prints schema-qualified and quoted when it is not on the search path.
    const type = row.type.replace(/^"?[a-z_][a-z0-9_]*"?\./, '').replace(/"/g, '');
    lines.push(`${row.schema}.${row.table}.${row.column}: ${type}${row.notnull ? ' NOT NULL' : ''}${row.hasdefault ? ' DEFAULT' : ''}`);
  }

  const { rows: indexes } = await client.query<{ schema: string; table: string; name: string; primary: boolean; unique: boolean; partial: boolean; columns: string[] }>(
    `SELECT n.nspname AS schema, t.relname AS table, i.relname AS name, x.indisprimary AS primary, x.indisunique AS unique,
            x.indpred IS NOT NULL OR x.indexprs IS NOT NULL AS partial,
            ARRAY(SELECT a.attname || CASE WHEN (x.indoption[k.ord - 1] & 1) = 1 THEN ' DESC' ELSE '' END
                    FROM unnest(x.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
                   ORDER BY k.ord) AS columns
       FROM pg_index x
       JOIN pg_class i ON i.oid = x.indexrelid
       JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = ANY($1)`,
    [schemas],
  );
  for (const row of indexes) {
    const kind = row.primary ? 'PRIMARY KEY' : row.unique ? 'UNIQUE' : 'INDEX';
    lines.push(`${row.schema}.${row.table}: ${kind} ${row.name} (${row.columns.join(', ')})${row.partial ? ' PARTIAL OR EXPRESSION' : ''}`);
  }

  const { rows: foreignKeys } = await client.query<{ schema: string; table: string; columns: string[]; target: string; targetColumns: string[]; ondelete: string; onupdate: string }>(
    `SELECT n.nspname AS schema, t.relname AS table,
            ARRAY(SELECT a.attname::text FROM unnest(k.conkey) WITH ORDINALITY AS u(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.attnum ORDER BY u.ord) AS columns,
            tn.nspname || '.' || tt.relname AS target,
            ARRAY(SELECT a.attname::text FROM unnest(k.confkey) WITH ORDINALITY AS u(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.attnum ORDER BY u.ord) AS "targetColumns",
            k.confdeltype AS ondelete, k.confupdtype AS onupdate
       FROM pg_constraint k
       JOIN pg_class t ON t.oid = k.conrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
       JOIN pg_class tt ON tt.oid = k.confrelid
       JOIN pg_namespace tn ON tn.oid = tt.relnamespace
      WHERE k.contype = 'f' AND n.nspname = ANY($1)`,
    [schemas],
  );
  for (const row of foreignKeys) {
    lines.push(
      `${row.schema}.${row.table}: FOREIGN KEY (${row.columns.join(', ')}) -> ${row.target} (${row.targetColumns.join(', ')}) ON DELETE ${PG_ACTIONS[row.ondelete]} ON UPDATE ${PG_ACTIONS[row.onupdate]}`,
    );
  }

  return { schemas: present.map((row) => row.nspname), lines: lines.sort() };
}

/** Lines only one side has, marked `schema.prisma only:` or `database only:`; empty when they agree. */
export function differences(prisma: SchemaDescription, database: SchemaDescription): string[] {
  const inDatabase = new Set(database.lines);
  const inPrisma = new Set(prisma.lines);
  return [
    ...prisma.schemas.filter((schema) => !database.schemas.includes(schema)).map((schema) => `schema.prisma only: schema ${schema}`),
    ...prisma.lines.filter((line) => !inDatabase.has(line)).map((line) => `schema.prisma only: ${line}`),
    ...database.lines.filter((line) => !inPrisma.has(line)).map((line) => `database only: ${line}`),
  ];
}
