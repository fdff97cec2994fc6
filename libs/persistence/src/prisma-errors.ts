import { Prisma } from './generated/prisma/client';

/** P2002: a unique constraint was violated. Adapters turn it into their domain error. */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}

/** P2025: the record an update or delete needed was not found. */
export function isRecordNotFound(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2025';
}
