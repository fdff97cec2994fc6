import type { WebhookMessageCreated } from '@pfs/contracts';

/** The `webhook-message.created` event's data: a message and the endpoints it is due to. */
export type RecordMessageCommand = WebhookMessageCreated;
