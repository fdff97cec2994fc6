import { z } from 'zod';

/**
 * One command of one service's queue, declared once: its payload schema (validated when the
 * job is consumed, and the source of the payload type), its result type, and whether it
 * changes state. A `mutation` goes through the exactly-once command log: it carries a command
 * id, and a repeat returns the stored result instead of running again.
 */
export interface CommandDefinition<P extends z.ZodType = z.ZodType, R = unknown> {
  readonly kind: 'query' | 'mutation';
  readonly payload: P;
  /** Type only: never set at run time. */
  readonly result?: R;
}

/** Reads state only; safe to run any number of times. */
export function query<P extends z.ZodType>(payload: P): { returns<R>(): CommandDefinition<P, R> } {
  return { returns: <R>() => ({ kind: 'query', payload }) as CommandDefinition<P, R> };
}

/** Changes state: runs at most once per command id. */
export function mutation<P extends z.ZodType>(payload: P): { returns<R>(): CommandDefinition<P, R> } {
  return { returns: <R>() => ({ kind: 'mutation', payload }) as CommandDefinition<P, R> };
}

export type CommandCatalog = Record<string, CommandDefinition>;

/** The payload type of a definition, as its schema parses it. */
export type PayloadOf<D> = D extends CommandDefinition<infer P, unknown> ? z.output<P> : never;
export type ResultOf<D> = D extends CommandDefinition<z.ZodType, infer R> ? R : never;

// Schemas shared by several services' commands.
export const pageRequestSchema = z.object({
  limit: z.number().int().min(1).max(100),
  cursor: z.string().nullable(),
});
/** Keyset page request shared by every list command. */
export type PageRequest = z.output<typeof pageRequestSchema>;

export const emptyPayload = z.object({});
