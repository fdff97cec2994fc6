import { OrganizationTierAssignedSubscriber } from './organization-tier-assigned.subscriber';

/** One handler per event type the quote service subscribes to (EVENT_SUBSCRIBERS); its consumer refuses to start otherwise. */
export const QUOTE_EVENT_HANDLERS = [OrganizationTierAssignedSubscriber];
