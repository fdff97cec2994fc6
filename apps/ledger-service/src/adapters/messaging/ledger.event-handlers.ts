import { OrganizationCreatedSubscriber } from './organization-created.subscriber';
import { OrganizationStandingUpdatedSubscriber } from './organization-standing-updated.subscriber';

/** One handler per event type the ledger subscribes to (EVENT_SUBSCRIBERS); its consumer refuses to start otherwise. */
export const LEDGER_EVENT_HANDLERS = [OrganizationCreatedSubscriber, OrganizationStandingUpdatedSubscriber];
