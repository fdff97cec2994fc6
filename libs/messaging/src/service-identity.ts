import type { CommandService } from '@pfs/contracts';

export const SERVICE_IDENTITY = Symbol('SERVICE_IDENTITY');

export interface ServiceIdentity {
  service: CommandService;
  /** The PostgreSQL schema this service owns. */
  schema: string;
}
