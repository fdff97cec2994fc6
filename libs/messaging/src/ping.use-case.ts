import { Inject, Injectable } from '@nestjs/common';
import { Clock, type PingResult } from '@pfs/contracts';
import { PrismaClient } from '@pfs/persistence';
import { SERVICE_IDENTITY, type ServiceIdentity } from './service-identity';

/**
 * `system.ping`: every service answers it after a round trip to its database, so a reply
 * proves the queue is consumed and PostgreSQL reachable (the gateway's `/readyz`).
 */
@Injectable()
export class PingUseCase {
  constructor(
    private readonly clock: Clock,
    private readonly prisma: PrismaClient,
    @Inject(SERVICE_IDENTITY) private readonly identity: ServiceIdentity,
  ) {}

  async execute(): Promise<PingResult> {
    await this.prisma.$queryRaw`SELECT 1`;
    return { service: this.identity.service, time: this.clock.now().toISOString() };
  }
}
