import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { WEBHOOK_EVENT_TYPES, type WebhookEndpointDeletionView, type WebhookEndpointView, type WebhookSecretView } from '@pfs/contracts';

const URL_RULE = 'must be an https:// URL of at most 2048 characters';
const TYPES_RULE = `must be an array of event types (${WEBHOOK_EVENT_TYPES.join(', ')})`;
const DESCRIPTION_RULE = 'must be a string of at most 500 characters';
const URL_DOC =
  'HTTPS URL receiving deliveries, at most 2,048 characters, without credentials. Refused (400 `invalid_request`) when its host is, or resolves to, a ' +
  'loopback, private (RFC 1918, fc00::/7), link-local or cloud-metadata, carrier-grade NAT, multicast or unspecified address (IPv4-mapped IPv6 included).';

@ApiSchema({ name: 'WebhookEndpoint', description: 'A webhook endpoint: where the organization’s events are delivered, and which ones.' })
export class WebhookEndpointDto implements WebhookEndpointView {
  @ApiProperty({ enum: ['webhook_endpoint'] })
  object!: 'webhook_endpoint';

  @ApiProperty({ pattern: '^ep_[0-9a-f]{32}$' })
  id!: string;

  @ApiProperty({ example: 'https://hooks.example.com/pfs' })
  url!: string;

  @ApiProperty({ type: 'string', nullable: true })
  description!: string | null;

  @ApiProperty({ description: 'When true the endpoint stays registered but receives no deliveries.' })
  disabled!: boolean;

  @ApiProperty({ type: [String], example: ['transaction.status.updated'], description: 'Subscribed event types; empty means all, including types added later.' })
  eventTypes!: string[];

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;
}

@ApiSchema({ name: 'WebhookEndpointDeletion', description: 'The result of deleting a webhook endpoint.' })
export class WebhookEndpointDeletionDto implements WebhookEndpointDeletionView {
  @ApiProperty({ enum: ['webhook_endpoint'] })
  object!: 'webhook_endpoint';

  @ApiProperty({ pattern: '^ep_[0-9a-f]{32}$' })
  id!: string;

  @ApiProperty({ enum: [true] })
  deleted!: true;
}

@ApiSchema({ name: 'WebhookSecret', description: 'The endpoint’s signing secret: `whsec_` + base64 of 32 random bytes.' })
export class WebhookSecretDto implements WebhookSecretView {
  @ApiProperty({ pattern: '^whsec_[A-Za-z0-9+/]+=*$' })
  key!: string;
}

/** `url` of both requests: the rule and its documentation together. */
function UrlField(required: boolean): PropertyDecorator {
  return applyDecorators(
    required ? ApiProperty({ maxLength: 2048, description: URL_DOC }) : ApiPropertyOptional({ maxLength: 2048, description: URL_DOC }),
    ...(required ? [] : [IsOptional()]),
    IsString({ message: URL_RULE }),
    MaxLength(2048, { message: URL_RULE }),
  );
}

function EventTypesField(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: [String], enum: WEBHOOK_EVENT_TYPES, description }),
    IsOptional(),
    IsArray({ message: TYPES_RULE }),
    ArrayMaxSize(50, { message: TYPES_RULE }),
    IsString({ each: true, message: TYPES_RULE }),
  );
}

function DescriptionField(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: 'string', maxLength: 500, nullable: true }),
    IsOptional(),
    IsString({ message: DESCRIPTION_RULE }),
    MaxLength(500, { message: DESCRIPTION_RULE }),
  );
}

@ApiSchema({ name: 'CreateWebhookEndpointRequest' })
export class CreateWebhookEndpointBody {
  @UrlField(true)
  url!: string;

  @EventTypesField('Omitted or empty: every event type, including types added later.')
  eventTypes?: string[];

  @DescriptionField()
  description?: string | null;
}

@ApiSchema({ name: 'UpdateWebhookEndpointRequest', description: 'Omitted fields are unchanged.' })
export class UpdateWebhookEndpointBody {
  @UrlField(false)
  url?: string;

  @EventTypesField('Empty: every event type.')
  eventTypes?: string[];

  @DescriptionField()
  description?: string | null;

  @ApiPropertyOptional({ description: 'true: no deliveries until set back to false (deliveries due meanwhile are dropped).' })
  @IsOptional()
  @IsBoolean({ message: 'must be true or false' })
  disabled?: boolean;
}

@ApiSchema({ name: 'RotateWebhookSecretRequest' })
export class RotateSecretBody {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 86400,
    default: 0,
    description: 'How long the old secret keeps verifying (deliveries carry both signatures meanwhile); 0, the spec’s behaviour, stops it at once.',
  })
  @IsOptional()
  @IsInt({ message: 'must be an integer between 0 and 86400' })
  @Min(0, { message: 'must be an integer between 0 and 86400' })
  @Max(86400, { message: 'must be an integer between 0 and 86400' })
  gracePeriodSeconds?: number;
}

@ApiSchema({ name: 'WebhookEventType', description: 'An event type endpoints can subscribe to, with an example delivery body.' })
export class WebhookEventTypeDto {
  @ApiProperty({ enum: ['webhook_event_type'] })
  object!: 'webhook_event_type';

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES })
  type!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'A delivered body (the event envelope with its `data`).' })
  example!: Record<string, unknown>;
}

@ApiSchema({ name: 'WebhookEventTypeList' })
export class WebhookEventTypeListDto {
  @ApiProperty({ enum: ['list'] })
  object!: 'list';

  @ApiProperty({ type: () => [WebhookEventTypeDto] })
  data!: WebhookEventTypeDto[];

  @ApiProperty({ type: 'boolean', description: 'Always false: the list is returned in full.' })
  hasMore!: false;

  @ApiProperty({ type: 'string', nullable: true, description: 'Always null.' })
  nextCursor!: null;
}
