import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { DomainError } from '@pfs/contracts';

/** One mutating command as the log knows it. */
export interface LoggedCommand {
  commandId: string;
  command: string;
  /** The validated payload: a repeat with another payload under the same id is refused. */
  payload: unknown;
  /** False for a command whose repeats meet the first's claim (its definition's `replay: 'on-claim'`): the log is read only if the work fails. */
  readFirst?: boolean;
}

/**
 * Exactly-once mutating commands. `runOnce` claims the command id with a row written by the
 * first statement of the transaction the work opens (its `unitOfWork.run`), and stores the
 * result in that row as its last statement before COMMIT: a repeat (a re-delivered job, a
 * client retry with the same Idempotency-Key) finds the row and gets the stored result without
 * running the work, and a concurrent repeat waits on the row until the first commits or rolls
 * back. A domain error rolls everything back, the row included: nothing changed, so a retry may
 * run again. What the work does before its transaction (questions to other services) holds no
 * connection; a mutation's use case returns what its transaction returned.
 */
export abstract class CommandLog {
  abstract runOnce<R>(command: LoggedCommand, work: () => Promise<R>): Promise<R>;
  /** Deletes entries older than `before`; the count deleted. */
  abstract purge(before: Date): Promise<number>;
}

/** How long a command's result is kept: longer than the gateway's idempotency window (24 h by default). */
export const COMMAND_LOG_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export function payloadHash(payload: unknown): string {
  return createHash('sha256')
    .update(canonicalize(payload) ?? 'null')
    .digest('hex');
}

/** The same command id came back with a different payload: a client reused its Idempotency-Key. */
export class CommandIdReusedError extends DomainError {
  constructor(command: string) {
    super(
      'idempotency_key_in_use',
      `This Idempotency-Key was already used for a different ${command} request. Use a new key for a new request.`,
    );
  }
}
