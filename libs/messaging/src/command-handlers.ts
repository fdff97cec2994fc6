import type { Type } from '@nestjs/common';
import type { CommandName, CommandPayload, CommandResult, CommandService } from '@pfs/contracts';

/** A use case that answers one command: the command's payload in, its result out. */
export interface CommandUseCase<S extends CommandService, N extends CommandName<S>> {
  execute(payload: CommandPayload<S, N>): Promise<CommandResult<S, N>>;
}

/**
 * A service's command → use case table, one line per command of its queue. Typed over the
 * whole contract, so a command without a use case (or a use case of the wrong shape) fails the
 * build; the consumer checks the same at start-up.
 */
export type CommandHandlerTable<S extends CommandService> = {
  readonly [N in CommandName<S>]: Type<CommandUseCase<S, N>>;
};

/** Declares a service's table; the identity function is there for the type check and the reader. */
export function commandHandlers<S extends CommandService>(_service: S, table: CommandHandlerTable<S>): CommandHandlerTable<S> {
  return table;
}
