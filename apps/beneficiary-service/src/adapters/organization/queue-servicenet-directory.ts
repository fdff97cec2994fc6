import { Injectable } from '@nestjs/common';
import type { ServicenetHandleResolution } from '@pfs/contracts';
import { CommandBus, RemoteDomainError, withinCurrentCommand } from '@pfs/messaging';
import { ServicenetDirectory } from '../../application/ports/servicenet-directory';

/** Asks the organization service over its queue (`servicenet.get`, `servicenet-handles.resolve`). */
@Injectable()
export class QueueServicenetDirectory extends ServicenetDirectory {
  constructor(private readonly bus: CommandBus) {
    super();
  }

  async isEnabled(organizationId: string): Promise<boolean> {
    return (await this.bus.send('organization', 'servicenet.get', { organizationId }, withinCurrentCommand())).enabled;
  }

  async resolve(handle: string): Promise<ServicenetHandleResolution | null> {
    try {
      return await this.bus.send('organization', 'servicenet-handles.resolve', { handle }, withinCurrentCommand());
    } catch (error) {
      if (error instanceof RemoteDomainError && error.code === 'servicenet_handle_not_found') return null;
      throw error;
    }
  }
}
