import { currentDeadline } from '@pfs/platform';
import { DomainError, type CommandService, type ErrorPayload } from '@pfs/contracts';

/** A domain error that came back over a queue as `{code, message}`. */
export class RemoteDomainError extends DomainError {
  constructor(payload: ErrorPayload) {
    super(payload.code, payload.message);
  }
}

/**
 * The owning service did not answer in time or has no worker at all. The gateway answers 503
 * with code `internal_error` and a message naming the service.
 */
export class ServiceUnavailableError extends DomainError {
  constructor(readonly service: CommandService) {
    super('internal_error', `The ${service} service is unavailable; try again shortly.`);
  }
}

/** How close to its sender's deadline a command may still commit: the reply must get back in time. */
export const COMMIT_MARGIN_MS = 250;

/**
 * Raised just before COMMIT when the command's sender has stopped waiting (or is about to): its
 * client was answered 503 and its idempotency key released, so committing now would produce an
 * effect that a retry would produce again. The transaction rolls back instead.
 */
export class CommandDeadlineExceededError extends Error {
  override readonly name = 'CommandDeadlineExceededError';

  constructor() {
    super('the command passed its deadline before commit; rolled back');
  }
}

/**
 * How long a service's transaction may wait for a connection and run: within a command, until its
 * deadline (at least 5 s and 10 s, the limits outside one); a sender still waiting is never
 * answered `internal_error` only because the machine is busy.
 */
export function commandTransactionLimits(now: () => number = Date.now): { maxWaitMs: number; timeoutMs: number } {
  const deadline = currentDeadline();
  const left = deadline === undefined ? 0 : deadline - now();
  return { maxWaitMs: Math.max(5000, left), timeoutMs: Math.max(10000, left) };
}

/** The services' beforeCommit hook (PrismaTransactionHost): outside a command it does nothing. */
export function assertCommandDeadline(now: () => number = Date.now): void {
  const deadline = currentDeadline();
  if (deadline !== undefined && now() > deadline - COMMIT_MARGIN_MS) throw new CommandDeadlineExceededError();
}

/**
 * A command sent while the caller holds a database transaction: its pooled connection would
 * sit idle in transaction for the whole round trip, and two services waiting on each other
 * that way drain only when deadlines fire. Ask other services before `unitOfWork.run`, or after
 * it returns. Not a domain error: the job fails loudly and the tests that reach it fail.
 */
export class CommandInsideTransactionError extends Error {
  override readonly name = 'CommandInsideTransactionError';

  constructor(service: CommandService, command: string) {
    super(`refusing to send ${service} ${command} while a database transaction is open: ask before the transaction, or after it commits`);
  }
}
