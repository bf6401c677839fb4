import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { API_KEY_AUTH, API_KEY_PROBLEMS, ApiAuthenticated, ApiIdempotent, ApiListResponse, ApiProblemResponses, ApiRetrieve, ApiTag, Ctx, IDEMPOTENT_PROBLEMS, LIST_PROBLEMS } from '@tally/http';
import { ResourceReads, type ListPage } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { CreateUsageAlertDto, UsageAlertResponse } from '../dto/usage-alert.dto';
import { ArchiveUsageAlertCommand, CreateUsageAlertCommand } from './usage-alert.handlers';
import { usageAlertResource } from './usage-alert.resource';
import type { UsageAlertResource } from './usage-alert.view';

/** Usage alerts, as Stripe's billing alerts: a threshold on a subscription's meter that fires once a period. */
@Controller('v1/usage-alerts')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag('usage')
export class UsageAlertsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly resources: ResourceReads,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a usage alert',
    description:
      'Fires `subscription.usage_threshold_crossed` once in each period in which the meter’s aggregate (as the subscription’s plan prices it) reaches `threshold`, checked after every accepted batch.',
  })
  @ApiOkResponse({ type: UsageAlertResponse })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, {
    400: ['usage_alert.invalid_threshold'],
    404: ['usage.subscription_not_found'],
    409: ['usage.subscription_canceled'],
    422: ['usage.meter_not_on_subscription'],
  })
  create(@Ctx() context: RequestContext, @Body() body: CreateUsageAlertDto): Promise<UsageAlertResource> {
    return this.commands.execute(new CreateUsageAlertCommand(context, { subscription_id: body.subscription_id, meter: body.meter, threshold: body.threshold, title: body.title ?? null }));
  }

  @Get()
  @ApiOperation({ summary: 'List usage alerts', description: 'Newest first by default; filter by `subscription_id` and `status`.' })
  @ApiListResponse(UsageAlertResponse, usageAlertResource.list)
  @ApiProblemResponses(API_KEY_PROBLEMS, LIST_PROBLEMS)
  list(@Ctx() context: RequestContext, @Query() params: Record<string, unknown>): Promise<ListPage<UsageAlertResource>> {
    return this.resources.list(usageAlertResource, context, params);
  }

  @Get(':id')
  @ApiRetrieve({
    noun: 'usage alert',
    summary: 'Retrieve a usage alert',
    description: 'With `last_triggered`, once it fired; with `as_of` as it was at that moment, rebuilt from its events (404 before it existed).',
    type: UsageAlertResponse,
    problems: { 404: ['usage_alert.not_found'] },
  })
  async retrieve(@Ctx() context: RequestContext, @Param('id') id: string, @Query('as_of') asOf: unknown): Promise<UsageAlertResource> {
    return (await this.resources.retrieve(usageAlertResource, context, id, asOf)).resource;
  }

  @Post(':id/archive')
  @HttpCode(200)
  @ApiOperation({ summary: 'Archive a usage alert', description: 'It fires no more.' })
  @ApiOkResponse({ type: UsageAlertResponse })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, { 404: ['usage_alert.not_found'], 409: ['request.concurrent_update'] })
  archive(@Ctx() context: RequestContext, @Param('id') id: string): Promise<UsageAlertResource> {
    return this.commands.execute(new ArchiveUsageAlertCommand(context, id));
  }
}
