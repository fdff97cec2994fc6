import { commandNames, DomainError, type CommandService, type PingResult } from '@pfs/contracts';
import type { Type } from '@nestjs/common';
import { CommandLog, type AnyCommandHandler, type CommandContext, type CommandHandlerTable, type LoggedCommand } from '../../src';

/**
 * These tests exercise the transport with `system.ping` only, on a real service's queue. A
 * consumer refuses to start unless every command of its queue has a handler, so the others are
 * answered with a refusal they never receive.
 */
export function pingOnlyHandlers<S extends CommandService>(service: S, ping: (context: CommandContext) => Promise<PingResult>): AnyCommandHandler<S>[] {
  return commandNames(service).map(
    (command) =>
      ({
        command,
        execute: (_payload: unknown, context: CommandContext) =>
          command === 'system.ping' ? ping(context) : Promise.reject(new DomainError('not_found', `${command} is not under test here`)),
      }) as AnyCommandHandler<S>,
  );
}

/** A consumer of a queue with mutations needs a command log; only queries are sent here, so none is ever logged. */
export class PassThroughCommandLog extends CommandLog {
  runOnce<R>(_command: LoggedCommand, work: () => Promise<R>): Promise<R> {
    return work();
  }

  async purge(): Promise<number> {
    return 0;
  }
}

/** The same for a service module: every command of the queue bound to the ping use case under test (only `system.ping` is ever sent). */
export function pingOnlyTable<S extends CommandService>(service: S, ping: Type<{ execute(): Promise<PingResult> }>): CommandHandlerTable<S> {
  return Object.fromEntries(commandNames(service).map((command) => [command, ping])) as unknown as CommandHandlerTable<S>;
}
