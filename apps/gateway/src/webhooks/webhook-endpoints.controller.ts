import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  DomainError,
  isId,
  WEBHOOK_EVENT_CATALOG,
  WEBHOOK_EVENT_TYPES,
  type PageView,
  type Principal,
  type WebhookEndpointDeletionView,
  type WebhookEndpointView,
  type WebhookDeliveryAttemptView,
  type WebhookDeliveryView,
  type WebhookRecoveryView,
  type WebhookSecretView,
} from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { CommandOrigin } from '../http/command-origin.decorator';
import { NoQueryDto } from '../http/no-query.dto';
import { fullList, type ListEnvelope } from '../lists/list-envelope';
import { PageQueryDto } from '../lists/page-query.dto';
import { Paginated } from '../lists/paginated.decorator';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { REQUEST_ID_RESPONSE_HEADER } from '../openapi/response-headers';
import { SpecListedCodes } from '../openapi/spec-listed-codes.decorator';
import {
  CreateWebhookEndpointBody,
  RotateSecretBody,
  UpdateWebhookEndpointBody,
  WebhookEndpointDeletionDto,
  WebhookEndpointDto,
  WebhookEventTypeListDto,
  WebhookSecretDto,
  type WebhookEventTypeDto,
} from './webhook-endpoint.dto';
import { RecoverDeliveriesBody, WebhookDeliveryAttemptDto, WebhookDeliveryDto, WebhookRecoveryDto } from './webhook-delivery.dto';

const ENDPOINT_PARAM = { name: 'endpointId', description: 'Webhook endpoint id, `ep_` + 32 hex.', example: 'ep_4c2a9e7b1d3f5a6c8e0b2d4f6a8c0e1b' } as const;
const MESSAGE_PARAM = { name: 'messageId', description: 'Message id (`hook-id`), `msg_` + 32 hex.', example: 'msg_8a1c3e5f7b9d4f2a6c8e0b2d4f6a8c0e' } as const;
const CHAIN_SEND_FAILED = {
  chain_send_failed: { never: 'managing an endpoint sends nothing on a chain; the code is listed for this endpoint without a condition.' },
} as const;

/** Spec 4.9: the organization's webhook endpoints and their signing secrets (api-decisions §8). */
@ApiTags('Webhooks')
@Controller('v1/webhooks')
export class WebhookEndpointsController {
  constructor(private readonly bus: CommandBus) {}

  /** A malformed id names no endpoint; answering here spares the service a round trip. */
  private static endpointId(endpointId: string): string {
    if (!isId('webhookEndpoint', endpointId)) throw new DomainError('not_found', 'No webhook endpoint with this id was found.');
    return endpointId;
  }

  @Get('event-types')
  @ApiOperation({
    operationId: 'listWebhookEventTypes',
    summary: 'List the webhook event types',
    description: 'Every event type an endpoint can subscribe to, with when it fires and an example delivery body. Returned in full, never paginated.',
  })
  @ApiOkResponse({ description: 'The event types.', type: WebhookEventTypeListDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors()
  eventTypes(@Query() _query: NoQueryDto): ListEnvelope<WebhookEventTypeDto> {
    return fullList(
      WEBHOOK_EVENT_TYPES.map((type) => ({
        object: 'webhook_event_type' as const,
        type,
        description: WEBHOOK_EVENT_CATALOG[type].description,
        example: WEBHOOK_EVENT_CATALOG[type].example as unknown as Record<string, unknown>,
      })),
    );
  }

  @Post('endpoints')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createWebhookEndpoint',
    summary: 'Register a webhook endpoint',
    description:
      'Registers an HTTPS URL with a new signing secret (read it with GET …/secret). `eventTypes` must be known types (GET /v1/webhooks/event-types); ' +
      'omitted or empty subscribes to every type, including types added later. The URL and every address its host resolves to are checked ' +
      'against the rules of `url` (400 `invalid_request` naming the problem); deliveries check the resolved address again.',
  })
  @ApiCreatedResponse({ description: 'The endpoint, enabled.', type: WebhookEndpointDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors()
  create(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Body() body: CreateWebhookEndpointBody,
    @Query() _query: NoQueryDto,
  ): Promise<WebhookEndpointView> {
    return this.bus.send(
      'webhook-delivery',
      'endpoints.create',
      { organizationId: principal.organizationId, url: body.url, eventTypes: body.eventTypes ?? [], description: body.description ?? null },
      origin,
    );
  }

  @Get('endpoints')
  @ApiOperation({
    operationId: 'listWebhookEndpoints',
    summary: 'List the organization’s webhook endpoints',
    description: 'Newest first; the standard paginated list (`limit`, `cursor`, `X-Next-Cursor`). Deleted endpoints are not listed.',
  })
  @Paginated(WebhookEndpointDto, 'WebhookEndpointList', 'One page of webhook endpoints, newest first.')
  @ApiErrors()
  list(@CurrentPrincipal() principal: Principal, @CommandOrigin() origin: CommandOrigin, @Query() query: PageQueryDto): Promise<PageView<WebhookEndpointView>> {
    return this.bus.send('webhook-delivery', 'endpoints.list', { organizationId: principal.organizationId, page: query.toPageRequest() }, origin);
  }

  @Get('endpoints/:endpointId')
  @ApiOperation({
    operationId: 'getWebhookEndpoint',
    summary: 'Retrieve a webhook endpoint',
    description: 'Another organization’s endpoint, a deleted one and an unknown or malformed id answer 404 `not_found`.',
  })
  @ApiParam(ENDPOINT_PARAM)
  @ApiOkResponse({ description: 'The endpoint.', type: WebhookEndpointDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('not_found')
  get(@CurrentPrincipal() principal: Principal, @CommandOrigin() origin: CommandOrigin, @Param('endpointId') endpointId: string, @Query() _query: NoQueryDto): Promise<WebhookEndpointView> {
    const id = WebhookEndpointsController.endpointId(endpointId);
    return this.bus.send('webhook-delivery', 'endpoints.get', { organizationId: principal.organizationId, endpointId: id }, origin);
  }

  @Patch('endpoints/:endpointId')
  @ApiOperation({
    operationId: 'updateWebhookEndpoint',
    summary: 'Update a webhook endpoint',
    description:
      'Omitted fields are unchanged. `disabled: true` stops deliveries (those due meanwhile are dropped, not sent later); `disabled: false` resumes them. ' +
      'A new `url` is checked like at registration.',
  })
  @ApiParam(ENDPOINT_PARAM)
  @ApiOkResponse({ description: 'The endpoint as updated.', type: WebhookEndpointDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('not_found')
  @SpecListedCodes(CHAIN_SEND_FAILED)
  update(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Param('endpointId') endpointId: string,
    @Body() body: UpdateWebhookEndpointBody,
    @Query() _query: NoQueryDto,
  ): Promise<WebhookEndpointView> {
    const id = WebhookEndpointsController.endpointId(endpointId);
    return this.bus.send(
      'webhook-delivery',
      'endpoints.update',
      {
        organizationId: principal.organizationId,
        endpointId: id,
        ...(body.url !== undefined ? { url: body.url } : {}),
        ...(body.eventTypes !== undefined ? { eventTypes: body.eventTypes } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.disabled !== undefined ? { disabled: body.disabled } : {}),
      },
      origin,
    );
  }

  @Delete('endpoints/:endpointId')
  @ApiOperation({
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint',
    description: 'Deliveries stop at once; the id answers 404 `not_found` from then on.',
  })
  @ApiParam(ENDPOINT_PARAM)
  @ApiOkResponse({ description: 'The deletion result.', type: WebhookEndpointDeletionDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('not_found')
  @SpecListedCodes(CHAIN_SEND_FAILED)
  delete(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Param('endpointId') endpointId: string,
    @Query() _query: NoQueryDto,
  ): Promise<WebhookEndpointDeletionView> {
    const id = WebhookEndpointsController.endpointId(endpointId);
    return this.bus.send('webhook-delivery', 'endpoints.delete', { organizationId: principal.organizationId, endpointId: id }, origin);
  }

  @Get('endpoints/:endpointId/secret')
  @ApiOperation({
    operationId: 'getWebhookEndpointSecret',
    summary: 'Retrieve the endpoint’s signing secret',
    description: 'Can be fetched at any time; it is stored encrypted. Verify deliveries with it as the Standard Webhooks specification describes.',
  })
  @ApiParam(ENDPOINT_PARAM)
  @ApiOkResponse({ description: 'The secret.', type: WebhookSecretDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('not_found')
  secret(@CurrentPrincipal() principal: Principal, @CommandOrigin() origin: CommandOrigin, @Param('endpointId') endpointId: string, @Query() _query: NoQueryDto): Promise<WebhookSecretView> {
    const id = WebhookEndpointsController.endpointId(endpointId);
    return this.bus.send('webhook-delivery', 'endpoint-secrets.get', { organizationId: principal.organizationId, endpointId: id }, origin);
  }

  @Post('endpoints/:endpointId/secret/rotate')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'rotateWebhookEndpointSecret',
    summary: 'Rotate the endpoint’s signing secret',
    description:
      'Issues a new secret and answers it as `{key}`. The old secret stops verifying at once, or, with `gracePeriodSeconds` (at most 86400), ' +
      'when that period ends; meanwhile deliveries carry a signature with each.',
  })
  @ApiParam(ENDPOINT_PARAM)
  @ApiOkResponse({ description: 'The new secret.', type: WebhookSecretDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('not_found')
  rotate(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Param('endpointId') endpointId: string,
    @Body() body: RotateSecretBody,
    @Query() _query: NoQueryDto,
  ): Promise<WebhookSecretView> {
    const id = WebhookEndpointsController.endpointId(endpointId);
    return this.bus.send(
      'webhook-delivery',
      'endpoint-secrets.rotate',
      { organizationId: principal.organizationId, endpointId: id, gracePeriodSeconds: body.gracePeriodSeconds ?? 0 },
      origin,
    );
  }

  @Get('endpoints/:endpointId/deliveries')
  @ApiOperation({
    operationId: 'listWebhookDeliveryAttempts',
    summary: 'List the endpoint’s delivery attempts',
    description:
      'Every attempt to this endpoint, newest first: message id, event type, attempt number, time, status code, duration, error and ' +
      'the first 4 KB of the answer. The standard paginated list.',
  })
  @ApiParam(ENDPOINT_PARAM)
  @Paginated(WebhookDeliveryAttemptDto, 'WebhookDeliveryAttemptList', 'One page of delivery attempts, newest first.')
  @ApiErrors('not_found')
  async deliveries(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Param('endpointId') endpointId: string,
    @Query() query: PageQueryDto,
  ): Promise<PageView<WebhookDeliveryAttemptView>> {
    const id = await this.ownEndpoint(principal, origin, endpointId);
    return this.bus.send('webhook-delivery-worker', 'delivery-attempts.list', { organizationId: principal.organizationId, endpointId: id, page: query.toPageRequest() }, origin);
  }

  @Post('endpoints/:endpointId/deliveries/:messageId/resend')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'resendWebhookMessage',
    summary: 'Send a message to the endpoint again',
    description:
      'Queues the message for this endpoint now, with a fresh retry schedule, whatever became of it before; the same `hook-id`, a new signature. ' +
      '404 `not_found` for a message that was never due to this endpoint. A disabled endpoint drops it.',
  })
  @ApiParam(ENDPOINT_PARAM)
  @ApiParam(MESSAGE_PARAM)
  @ApiResponse({ status: 202, description: 'Queued.', type: WebhookDeliveryDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('not_found')
  @SpecListedCodes(CHAIN_SEND_FAILED)
  async resend(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Param('endpointId') endpointId: string,
    @Param('messageId') messageId: string,
    @Query() _query: NoQueryDto,
  ): Promise<WebhookDeliveryView> {
    const id = await this.ownEndpoint(principal, origin, endpointId);
    if (!isId('webhookMessage', messageId)) throw new DomainError('not_found', 'No delivery of this message to this webhook endpoint was found.');
    return this.bus.send('webhook-delivery-worker', 'deliveries.resend', { organizationId: principal.organizationId, endpointId: id, messageId }, origin);
  }

  @Post('endpoints/:endpointId/recover')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'recoverWebhookDeliveries',
    summary: 'Re-send what failed or was dropped in a window',
    description:
      'As Svix offers: every message created in [`since`, `until`) whose delivery to this endpoint failed for good, or was dropped ' +
      'while the endpoint was disabled, is queued again now. Delivered messages and those still retrying are left alone. Re-enabling an endpoint does ' +
      'not replay what was dropped; this does.',
  })
  @ApiParam(ENDPOINT_PARAM)
  @ApiResponse({ status: 202, description: 'What was queued again.', type: WebhookRecoveryDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiErrors('not_found')
  @SpecListedCodes(CHAIN_SEND_FAILED)
  async recover(
    @CurrentPrincipal() principal: Principal,
    @CommandOrigin() origin: CommandOrigin,
    @Param('endpointId') endpointId: string,
    @Body() body: RecoverDeliveriesBody,
    @Query() _query: NoQueryDto,
  ): Promise<WebhookRecoveryView> {
    const id = await this.ownEndpoint(principal, origin, endpointId);
    if (body.until !== undefined && new Date(body.until) <= new Date(body.since)) throw new DomainError('invalid_request', 'until: must be after since');
    return this.bus.send(
      'webhook-delivery-worker',
      'deliveries.recover',
      { organizationId: principal.organizationId, endpointId: id, since: new Date(body.since).toISOString(), until: body.until === undefined ? null : new Date(body.until).toISOString() },
      origin,
    );
  }

  /** The attempt log lives with the worker; the endpoint's owner is the webhook-delivery service's to say (404 otherwise). */
  private async ownEndpoint(principal: Principal, origin: CommandOrigin, endpointId: string): Promise<string> {
    const id = WebhookEndpointsController.endpointId(endpointId);
    await this.bus.send('webhook-delivery', 'endpoints.get', { organizationId: principal.organizationId, endpointId: id }, { requestId: origin.requestId });
    return id;
  }
}
