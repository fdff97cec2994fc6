import { AsyncLocalStorage } from 'node:async_hooks';
import { Client } from 'pg';

const measuring = new AsyncLocalStorage<true>();

/**
 * The first three words of every statement sent to PostgreSQL on behalf of `work`, in order: what
 * it costs in round trips. By default, what `work` itself sends (its own async context, so the
 * process's background passes are left out); with `requestId`, what is sent under that request id
 * anywhere in the process (a command `work` sends to a service running in this process).
 */
export async function statementsDuring(work: () => Promise<unknown>, options: { requestId?: string } = {}): Promise<string[]> {
  const sent: string[] = [];
  // Loaded here, not with the library: see in-process-service.ts.
  const { currentRequestId } = await import('@pfs/platform');
  const prototype = Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  const counted = () => (options.requestId === undefined ? measuring.getStore() === true : currentRequestId() === options.requestId);
  prototype.query = function (this: Client, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
    if (text && counted()) sent.push(text.trim().split(/\s+/).slice(0, 3).join(' '));
    return original.apply(this, args);
  };
  try {
    await measuring.run(true, work);
  } finally {
    prototype.query = original;
  }
  return sent;
}

/**
 * The statements that write, leaving out the outbox relay's hand-offs in `schema` (after a commit
 * it marks the committed events published).
 */
export function writesOf(statements: readonly string[], schema: string): string[] {
  const handOff = `UPDATE "${schema}"."outbox_events" SET`;
  return statements.filter((text) => !text.startsWith('SELECT') && text !== handOff);
}
