import type { QueryResultRow } from 'pg';
import { Prisma, type PrismaClient, driverPoolOf, preparedStatementName } from './prisma-client.factory';

/**
 * Sends one raw statement on the `pg` pool under `client`, outside any transaction, named so each
 * connection prepares it once. Through Prisma a raw statement costs several times the driver's
 * own work in CPU (its request pipeline, argument typing and result mapping); hot statements
 * that need none of it come here. Rows are as `pg` parses them (numeric and int8 as strings,
 * jsonb parsed), so use it for statements whose result columns read the same either way.
 * A refusal is `pg`'s `DatabaseError` (its `code` and `constraint`), which the helpers of
 * prisma-errors.ts recognize as they do Prisma's.
 */
export async function sendOnDriver<Row extends QueryResultRow = QueryResultRow>(
  client: PrismaClient,
  sql: Prisma.Sql,
): Promise<{ rows: Row[]; rowCount: number }> {
  const pool = driverPoolOf(client);
  if (!pool) throw new Error('sendOnDriver needs a client made by createPrismaClient');
  const text = sql.text;
  const result = await pool.query<Row>({ name: preparedStatementName({ sql: text }), text, values: sql.values.map(driverValue) });
  return { rows: result.rows, rowCount: result.rowCount ?? 0 };
}

/**
 * A parameter as the statement needs it: a Date as its ISO 8601 UTC form (a `timestamp(3)` column,
 * which holds UTC, takes its wall time and ignores the zone; a `timestamptz` reads it as UTC,
 * whatever the session's time zone), a Decimal as its digits.
 */
function driverValue(value: unknown): unknown {
  // Most parameters are strings, numbers or arrays of them: passed on as they are, uncopied.
  if (!mayNeedConversion(value)) return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.some(mayNeedConversion) ? value.map(driverValue) : value;
  if (Prisma.Decimal.isDecimal(value)) return (value as Prisma.Decimal).toFixed();
  return value;
}

/** Only objects (a Date, a Decimal, an array) are ever converted; strings, numbers and null never. */
const mayNeedConversion = (value: unknown): value is object => typeof value === 'object' && value !== null;
