import { Client } from 'pg';

/** The relay's hand-off after a commit: it marks the committed events published, beside any command. */
export const RELAY_HAND_OFF = 'UPDATE "ledger"."outbox_events" SET';

/**
 * The first three words of every statement this process sends to PostgreSQL while `work` runs,
 * in order, but those on the test's own `except` connection: what a command costs in round trips.
 */
export async function statementsDuring(work: () => Promise<unknown>, except?: Client): Promise<string[]> {
  const sent: string[] = [];
  const original = Client.prototype.query as (...args: unknown[]) => unknown;
  const spy = jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
    if (this !== except && text) sent.push(text.trim().split(/\s+/).slice(0, 3).join(' '));
    return original.apply(this, args) as never;
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return sent;
}

/** The statements that write, leaving out the relay's hand-offs. */
export function writesOf(statements: readonly string[]): string[] {
  return statements.filter((text) => !text.startsWith('SELECT') && text !== RELAY_HAND_OFF);
}
