import { Injectable, type Type } from '@nestjs/common';
import { Clock, type CommandService, type PingResult } from '@pfs/contracts';
import type { AnyCommandHandler } from './command-consumer';

/** `system.ping`: every service answers it, so the gateway can tell a queue is consumed. */
export function pingHandlerFor<S extends CommandService>(service: S): Type<AnyCommandHandler<S>> {
  @Injectable()
  class PingHandler {
    readonly command = 'system.ping';
    constructor(private readonly clock: Clock) {}
    async execute(): Promise<PingResult> {
      return { service, time: this.clock.now().toISOString() };
    }
  }
  return PingHandler as unknown as Type<AnyCommandHandler<S>>;
}
