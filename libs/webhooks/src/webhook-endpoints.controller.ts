import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Request } from 'express';
import { API_KEY_AUTH, API_KEY_PROBLEMS, ApiAuthenticated, ApiIdempotent, ApiListResponse, ApiProblemResponses, apiVersionOf, ApiTag, Ctx, IDEMPOTENT_PROBLEMS, LIST_PROBLEMS, resourceController } from '@tally/http';
import type { IdGenerator } from '@tally/kernel';
import { ID_GENERATOR, type RequestContext } from '@tally/cells';
import { Commands, type ListPage } from '@tally/runtime';
import { ReplayWebhookEventsDto, WebhookDeliveryResponse, WebhookReplayResponse } from './dto/webhook-delivery.dto';
import {
  CreateWebhookEndpointDto,
  DeletedWebhookEndpointResponse,
  RotateWebhookSecretDto,
  UpdateWebhookEndpointDto,
  WebhookEndpointResponse,
  WebhookEndpointWithSecretResponse,
} from './dto/webhook-endpoint.dto';
import type { EventCatalogue } from './domain/event-types';
import { EVENT_CATALOGUE } from './event-catalogue.provider';
import { WebhookDeliveries, type WebhookReplay } from './webhook-deliveries';
import { webhookEndpointAggregate } from './webhook-endpoint.aggregate';
import { newSecret, type WebhookEndpointWithSecret } from './webhook-secret';
import type { WebhookEndpointResource } from './webhook-endpoint.view';
import { webhookEndpointResource } from './webhook-endpoint.resource';
import { webhookDeliveryList, type WebhookDelivery } from './webhook.queries';
import { WEBHOOKS_SECTION } from './webhooks.api-sections';

const NOT_FOUND = { 404: ['webhook_endpoint.not_found'] };
const INVALID_ENDPOINT = { 400: ['webhook_endpoint.invalid_url', 'webhook_endpoint.invalid_events', 'webhook_endpoint.unknown_event_type'] };

/** Webhook endpoints: where the public events are POSTed, signed, in commit order per resource. */
@Controller('v1/admin/webhook-endpoints')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag(WEBHOOKS_SECTION)
export class WebhookEndpointsController {
  constructor(
    private readonly commands: Commands,
    private readonly webhookDeliveries: WebhookDeliveries,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(EVENT_CATALOGUE) private readonly catalogue: EventCatalogue,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a webhook endpoint',
    description: 'Every later public event of a matching type is POSTed to `url`, signed with `secret`, which this response alone shows. `events` takes exact types, `category.*` patterns or `*`.',
  })
  @ApiOkResponse({ type: WebhookEndpointWithSecretResponse })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, INVALID_ENDPOINT)
  async create(@Ctx() context: RequestContext, @Req() request: Request, @Body() body: CreateWebhookEndpointDto): Promise<WebhookEndpointWithSecret> {
    const id = this.ids.next('we');
    const secret = newSecret();
    const data = {
      webhook_endpoint_id: id,
      url: body.url,
      events: body.events,
      description: body.description ?? null,
      api_version: body.api_version ?? apiVersionOf(request),
      secret,
      livemode: context.environment === 'live',
      catalogue: this.catalogue,
    };
    const { resource } = await this.commands.send(webhookEndpointAggregate, id, { type: 'CreateWebhookEndpoint', data }, context, { newStream: true });
    return { ...resource!, secret };
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Update a webhook endpoint', description: 'Change `url`, `events`, `description`, or `status`: a disabled endpoint gets no new deliveries, and attempts under way finish.' })
  @ApiOkResponse({ type: WebhookEndpointResponse })
  @ApiProblemResponses(API_KEY_PROBLEMS, NOT_FOUND, INVALID_ENDPOINT, { 409: ['request.concurrent_update'] })
  async update(@Ctx() context: RequestContext, @Param('id') id: string, @Body() body: UpdateWebhookEndpointDto): Promise<WebhookEndpointResource> {
    const data = { webhook_endpoint_id: id, url: body.url, events: body.events, description: body.description, status: body.status, livemode: context.environment === 'live', catalogue: this.catalogue };
    return (await this.commands.send(webhookEndpointAggregate, id, { type: 'UpdateWebhookEndpoint', data }, context)).resource!;
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a webhook endpoint', description: 'It gets no more deliveries; its records go with it.' })
  @ApiOkResponse({ type: DeletedWebhookEndpointResponse })
  @ApiProblemResponses(API_KEY_PROBLEMS, NOT_FOUND, { 409: ['request.concurrent_update'] })
  async delete(@Ctx() context: RequestContext, @Param('id') id: string): Promise<DeletedWebhookEndpointResponse> {
    await this.commands.send(webhookEndpointAggregate, id, { type: 'DeleteWebhookEndpoint', data: { webhook_endpoint_id: id } }, context);
    return { id, object: 'webhook_endpoint', deleted: true };
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Rotate a webhook endpoint’s secret',
    description: 'A new secret, shown in this response only. For `expires_in` seconds the old one keeps signing too: each delivery then carries two `v1` signatures.',
  })
  @ApiOkResponse({ type: WebhookEndpointWithSecretResponse })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, NOT_FOUND, { 409: ['request.concurrent_update'] })
  async rotateSecret(@Ctx() context: RequestContext, @Param('id') id: string, @Body() body: RotateWebhookSecretDto): Promise<WebhookEndpointWithSecret> {
    const secret = newSecret();
    const expiresIn = body.expires_in ?? 0;
    const rotate = (now: string) => ({
      type: 'RotateWebhookEndpointSecret' as const,
      data: { webhook_endpoint_id: id, secret, previous_secret_expires_at: new Date(Date.parse(now) + expiresIn * 1000).toISOString() },
    });
    const { resource } = await this.commands.send(webhookEndpointAggregate, id, rotate, context);
    return { ...resource!, secret };
  }

  @Get(':id/deliveries')
  @ApiOperation({
    summary: 'List a webhook endpoint’s deliveries',
    description: 'Newest first by default; filter by `status` (pending, succeeded, failed), `event_type` and `created_at`. Each record shows the body POSTed, every attempt, and the last answer. Records are kept 90 days.',
  })
  @ApiListResponse(WebhookDeliveryResponse, webhookDeliveryList())
  @ApiProblemResponses(API_KEY_PROBLEMS, LIST_PROBLEMS, NOT_FOUND)
  deliveries(@Ctx() context: RequestContext, @Param('id') id: string, @Query() params: Record<string, unknown>): Promise<ListPage<WebhookDelivery>> {
    return this.webhookDeliveries.list(context, id, params);
  }

  @Post(':id/deliveries/:delivery_id/retry')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Retry a delivery',
    description: 'One more attempt with the same event id, after the deliveries of the same resource that are still to go; a failed retry is not retried again.',
  })
  @ApiAcceptedResponse({ type: WebhookDeliveryResponse })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, { 404: ['webhook_endpoint.not_found', 'webhook_delivery.not_found'] })
  retry(@Ctx() context: RequestContext, @Param('id') id: string, @Param('delivery_id') deliveryId: string): Promise<WebhookDelivery> {
    return this.webhookDeliveries.retry(context, id, deliveryId);
  }

  @Post(':id/replay')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Replay a window of events',
    description: 'Sends again every event this endpoint was sent in `[from, to)` (at most 7 days; optionally only some `types`, or deliveries of one `status`), as new deliveries with the same event ids, in commit order per resource.',
  })
  @ApiAcceptedResponse({ type: WebhookReplayResponse })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, NOT_FOUND, {
    400: ['webhook_endpoint.invalid_replay_window', 'webhook_endpoint.unknown_event_type', 'webhook_endpoint.replay_too_large'],
  })
  replay(@Ctx() context: RequestContext, @Param('id') id: string, @Body() body: ReplayWebhookEventsDto): Promise<WebhookReplay> {
    return this.webhookDeliveries.replay(context, id, { from: body.from, to: body.to, types: body.types, status: body.status });
  }
}

/** The list and the retrieve (with `as_of`), from the resource's definition. */
export const WebhookEndpointReadsController = resourceController(webhookEndpointResource, {
  path: 'v1/admin/webhook-endpoints', tag: WEBHOOKS_SECTION, noun: 'webhook endpoint', type: WebhookEndpointResponse, operations: 'WebhookEndpointsController',
  list: { summary: 'List webhook endpoints', description: 'Newest first by default; filter by `status`. Secrets are never shown again.' },
  retrieve: { summary: 'Retrieve a webhook endpoint', description: 'Without its secret; with `as_of` as it was at that moment, rebuilt from its events (404 before it existed).', problems: NOT_FOUND },
});
