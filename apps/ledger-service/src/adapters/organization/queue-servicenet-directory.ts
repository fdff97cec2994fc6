import { Injectable } from '@nestjs/common';
import { CommandBus, withinCurrentCommand } from '@pfs/messaging';
import { ServicenetDirectory } from '../../application/ports/servicenet-directory';

/** The organization service's `servicenet.get`, asked over its queue within the current command. */
@Injectable()
export class QueueServicenetDirectory extends ServicenetDirectory {
  constructor(private readonly bus: CommandBus) {
    super();
  }

  async isEnabled(organizationId: string): Promise<boolean> {
    return (await this.bus.send('organization', 'servicenet.get', { organizationId }, withinCurrentCommand())).enabled;
  }
}
