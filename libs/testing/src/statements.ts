import { Client } from 'pg';

/**
 * The first three words of every statement this process sends to PostgreSQL while `work` runs,
 * in order, but those on the test's own `except` connection: what a command costs in round trips.
 */
export async function statementsDuring(work: () => Promise<unknown>, except?: Client): Promise<string[]> {
  const sent: string[] = [];
  const prototype = Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  prototype.query = function (this: Client, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
    if (this !== except && text) sent.push(text.trim().split(/\s+/).slice(0, 3).join(' '));
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    prototype.query = original;
  }
  return sent;
}

/**
 * The statements that write, leaving out the outbox relay's hand-offs in `schema` (after a commit
 * it marks the committed events published, beside whatever command runs).
 */
export function writesOf(statements: readonly string[], schema: string): string[] {
  const handOff = `UPDATE "${schema}"."outbox_events" SET`;
  return statements.filter((text) => !text.startsWith('SELECT') && text !== handOff);
}
