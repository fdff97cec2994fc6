import type { CommandService, ErrorCode } from '@pfs/contracts';
import { RemoteDomainError, type CommandBus } from '@pfs/messaging';

export interface SentCommand {
  name: string;
  payload: Record<string, unknown>;
}

/**
 * Answers one service's commands in place of its process (every other service's still go to the
 * real ones, authentication included), recording what the gateway sent: a route's half of the
 * contract, what it forwards and what it refuses before asking.
 */
export class StandInService {
  /** Emptied in place (`sent.length = 0`), so a test may hold on to it. */
  readonly sent: SentCommand[] = [];
  /** When set, every command is answered with this error, as the real service's reply would arrive. */
  failWith: { code: ErrorCode; message: string } | null = null;

  constructor(bus: CommandBus, service: CommandService, answer: (name: string) => unknown) {
    const send = bus.send.bind(bus);
    jest.spyOn(bus, 'send').mockImplementation((async (to: string, name: string, payload: Record<string, unknown>, options: never) => {
      if (to !== service) return send(to as never, name as never, payload as never, options);
      this.sent.push({ name, payload });
      if (this.failWith) throw new RemoteDomainError(this.failWith);
      return answer(name);
    }) as never);
  }

  reset(): void {
    this.sent.length = 0;
    this.failWith = null;
  }
}
