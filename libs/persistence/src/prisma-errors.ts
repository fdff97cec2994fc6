import { DatabaseError } from 'pg';
import { Prisma } from './generated/prisma/client';

/**
 * A unique constraint was violated: P2002 from a model query, or PostgreSQL's 23505 from a raw
 * one (through Prisma or straight from `pg`); by constraint name when `constraint` is given. Adapters turn it into their domain error.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const unique = (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') || driverCode(error) === '23505';
  return unique && (constraint === undefined || mentionsConstraint(error, constraint));
}

/**
 * PostgreSQL's SQLSTATE of a refused statement: from `pg` directly (`sendOnDriver`), or carried
 * in a Prisma error's meta when the statement went through Prisma.
 */
function driverCode(error: unknown): unknown {
  if (error instanceof DatabaseError) return error.code;
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return undefined;
  return (error.meta?.driverAdapterError as { cause?: { originalCode?: unknown } } | undefined)?.cause?.originalCode;
}

/** P2025: the record an update or delete needed was not found. */
export function isRecordNotFound(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2025';
}

/**
 * A CHECK constraint refused a write (PostgreSQL 23514), by constraint name. Raw queries report
 * it through the driver adapter as P2010 with the database's code and message in `meta`; model
 * queries as P2004 or a driver error. Adapters turn it into their domain error.
 */
export function isCheckViolation(error: unknown, constraint: string): boolean {
  return mentionsConstraint(error, constraint);
}

/** Whether the error, its meta or its cause names `constraint`. */
function mentionsConstraint(error: unknown, constraint: string): boolean {
  if (!error || typeof error !== 'object') return false;
  const seen = new Set<unknown>();
  const search = (value: unknown, depth: number): boolean => {
    if (depth > 6 || value === null || value === undefined || seen.has(value)) return false;
    if (typeof value === 'string') return value.includes(constraint);
    if (typeof value !== 'object') return false;
    seen.add(value);
    return Object.values(value as Record<string, unknown>).some((inner) => search(inner, depth + 1)) || search((value as Error).message, depth + 1);
  };
  return search(error, 0);
}

/**
 * A value does not fit its numeric column (PostgreSQL 22003, "numeric field overflow"): P2010
 * from a raw query, P2020 from a model query, the database's code in `meta` either way.
 * Adapters turn it into a domain error, so an amount too large is refused rather than retried.
 */
export function isNumericOverflow(error: unknown): boolean {
  return driverCode(error) === '22003';
}

/**
 * For a guarded write in a unit's one statement (a `DeferredWrite`'s `returning`): a scalar that
 * refuses the whole statement when the CTE `cte` returned no row, so nothing of the unit is
 * written. Plain SQL cannot raise an error, so it divides by the row count; `isRequiredRowMissing`
 * recognizes the refusal (PostgreSQL 22012).
 */
export function requireRow(cte: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT 1 / count(*) FROM ${cte})`;
}

/** The refusal of `requireRow`: the guarded CTE matched no row. */
export function isRequiredRowMissing(error: unknown): boolean {
  return driverCode(error) === '22012';
}
