import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsISO8601, IsOptional } from 'class-validator';
import { WEBHOOK_DELIVERY_STATUSES, type WebhookDeliveryAttemptView, type WebhookDeliveryStatus, type WebhookDeliveryView, type WebhookRecoveryView } from '@pfs/contracts';

const TIMESTAMP_RULE = 'must be an ISO 8601 date-time such as 2026-11-21T04:44:09Z';

@ApiSchema({
  name: 'WebhookDeliveryAttempt',
  description: 'One attempt to deliver a message to the endpoint (every attempt is recorded).',
})
export class WebhookDeliveryAttemptDto implements WebhookDeliveryAttemptView {
  @ApiProperty({ enum: ['webhook_delivery_attempt'] })
  object!: 'webhook_delivery_attempt';

  @ApiProperty({ pattern: '^att_[0-9a-f]{32}$' })
  id!: string;

  @ApiProperty({ pattern: '^msg_[0-9a-f]{32}$', description: 'The message id, sent as `hook-id`: the same on every attempt and every endpoint.' })
  messageId!: string;

  @ApiProperty({ example: 'transaction.status.updated' })
  eventType!: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: '1 for the first attempt of the message to this endpoint; resends count on.' })
  attempt!: number;

  @ApiProperty({ format: 'date-time', description: 'When the attempt was sent (its `hook-timestamp`).' })
  attemptedAt!: string;

  @ApiProperty({ type: 'integer', nullable: true, description: 'The receiver’s HTTP status; null when no answer came (timeout, refused address, connection error).' })
  statusCode!: number | null;

  @ApiProperty({ type: 'integer', minimum: 0 })
  durationMs!: number;

  @ApiProperty({ type: 'string', nullable: true, description: 'Why the attempt failed; null on a 2xx.' })
  error!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'The first 4 KB of the receiver’s answer (UTF-8); null when it sent none.' })
  response!: string | null;
}

@ApiSchema({ name: 'WebhookDelivery', description: 'A message queued again for the endpoint.' })
export class WebhookDeliveryDto implements WebhookDeliveryView {
  @ApiProperty({ enum: ['webhook_delivery'] })
  object!: 'webhook_delivery';

  @ApiProperty({ pattern: '^msg_[0-9a-f]{32}$' })
  messageId!: string;

  @ApiProperty({ pattern: '^ep_[0-9a-f]{32}$' })
  endpointId!: string;

  @ApiProperty({ enum: WEBHOOK_DELIVERY_STATUSES, enumName: 'WebhookDeliveryStatus' })
  status!: WebhookDeliveryStatus;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'When the next attempt is due; null once the delivery is finished.' })
  nextAttemptAt!: string | null;
}

export class RecoverDeliveriesBody {
  @ApiProperty({ format: 'date-time', description: 'Messages created at or after this instant.' })
  @IsISO8601({ strict: true }, { message: TIMESTAMP_RULE })
  since!: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Messages created before this instant (default: now).' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: TIMESTAMP_RULE })
  until?: string;
}

@ApiSchema({ name: 'WebhookRecovery', description: 'What a recover queued again.' })
export class WebhookRecoveryDto implements WebhookRecoveryView {
  @ApiProperty({ enum: ['webhook_recovery'] })
  object!: 'webhook_recovery';

  @ApiProperty({ pattern: '^ep_[0-9a-f]{32}$' })
  endpointId!: string;

  @ApiProperty({ format: 'date-time' })
  since!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  until!: string | null;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Messages whose failed or dropped delivery was queued again.' })
  messages!: number;
}
