import { subscribedEventTypes, type EventType } from '@pfs/contracts';
import type { AnyEventHandler } from '../../src';

/**
 * These tests consume as the ledger, which must handle every event it subscribes to: a no-op
 * handler for each ledger event the test does not handle itself (`handled`).
 */
export function otherLedgerHandlers(...handled: EventType[]): AnyEventHandler[] {
  return subscribedEventTypes('ledger')
    .filter((type) => !handled.includes(type))
    .map((type) => ({ event: type, handle: async () => undefined }) as AnyEventHandler);
}
