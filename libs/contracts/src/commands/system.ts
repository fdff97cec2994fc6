import { emptyPayload, query } from './command-definition';

/** Every service's queue answers `system.ping` (the gateway's `/readyz`). */
export interface PingResult {
  service: string;
  time: string;
}

export const systemCommands = {
  /** A round trip to the service's database: proves the queue is consumed and PostgreSQL reachable. */
  'system.ping': query(emptyPayload).returns<PingResult>(),
} as const;
