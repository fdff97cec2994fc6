import { Injectable, type Type } from '@nestjs/common';
import { Clock, type CommandService, type PingResult } from '@pfs/contracts';
import { PrismaClient } from '@pfs/persistence';
import type { AnyCommandHandler } from './command-consumer';

/**
 * `system.ping`: every service answers it after a round trip to its database, so a reply
 * proves the queue is consumed and PostgreSQL reachable (the gateway's `/readyz`).
 */
export function pingHandlerFor<S extends CommandService>(service: S): Type<AnyCommandHandler<S>> {
  @Injectable()
  class PingHandler {
    readonly command = 'system.ping';
    constructor(
      private readonly clock: Clock,
      private readonly prisma: PrismaClient,
    ) {}
    async execute(): Promise<PingResult> {
      await this.prisma.$queryRaw`SELECT 1`;
      return { service, time: this.clock.now().toISOString() };
    }
  }
  return PingHandler as unknown as Type<AnyCommandHandler<S>>;
}
