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

/** The services' beforeCommit hook (PrismaTransactionHost): outside a command it does nothing. */
export function assertCommandDeadline(now: () => number = Date.now): void {
  const deadline = currentDeadline();
  if (deadline !== undefined && now() > deadline - COMMIT_MARGIN_MS) throw new CommandDeadlineExceededError();
}
