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
  /**
   * How a mutation's repeat finds the first delivery's result. `read-first` (the default): the
   * command log is read before the use case runs. `on-claim`: the use case writes its claim on
   * every success (or answers a repeat the same from its own data), so a repeat meets the first's
   * claim and gets its result there; the log is read only when the use case fails, so a repeat
   * whose refusal is true only now is still answered what the first delivery was. It spares a
   * statement per command on the hot paths.
   */
  readonly replay?: 'read-first' | 'on-claim';
  /** Type only: never set at run time. */
  readonly result?: R;
}

/** Reads state only; safe to run any number of times. */
export function query<P extends z.ZodType>(payload: P): { returns<R>(): CommandDefinition<P, R> } {
  return { returns: <R>() => ({ kind: 'query', payload }) as CommandDefinition<P, R> };
}

/** Changes state: runs at most once per command id. */
export function mutation<P extends z.ZodType>(
  payload: P,
  options: { replay?: 'read-first' | 'on-claim' } = {},
): { returns<R>(): CommandDefinition<P, R> } {
  return { returns: <R>() => ({ kind: 'mutation', payload, ...options }) as CommandDefinition<P, R> };
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
