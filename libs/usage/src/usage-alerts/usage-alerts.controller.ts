import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { API_KEY_AUTH, API_KEY_PROBLEMS, ApiAuthenticated, ApiIdempotent, ApiProblemResponses, ApiTag, Ctx, IDEMPOTENT_PROBLEMS, resourceController } from '@tally/http';
import { Commands } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { CreateUsageAlertDto, UsageAlertResponse } from '../dto/usage-alert.dto';
import { usageAlertAggregate } from './usage-alert.aggregate';
import { usageAlertResource } from './usage-alert.resource';
import type { UsageAlertResource } from './usage-alert.view';
import { UsageAlerts } from './usage-alerts';
import { USAGE_SECTION } from '../usage.api-sections';

/** Usage alerts, as Stripe's billing alerts: a threshold on a subscription's meter that fires once a period. */
@Controller('v1/usage-alerts')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag(USAGE_SECTION)
export class UsageAlertsController {
  constructor(
    private readonly commands: Commands,
    private readonly alerts: UsageAlerts,
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
    return this.alerts.create(context, { subscription_id: body.subscription_id, meter: body.meter, threshold: body.threshold, title: body.title ?? null });
  }

  @Post(':id/archive')
  @HttpCode(200)
  @ApiOperation({ summary: 'Archive a usage alert', description: 'It fires no more.' })
  @ApiOkResponse({ type: UsageAlertResponse })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, { 404: ['usage_alert.not_found'], 409: ['request.concurrent_update'] })
  async archive(@Ctx() context: RequestContext, @Param('id') id: string): Promise<UsageAlertResource> {
    return (await this.commands.send(usageAlertAggregate, id, { type: 'ArchiveUsageAlert', data: { usage_alert_id: id } }, context)).resource!;
  }
}

/** The list and the retrieve (with `as_of`), from the resource's definition. */
export const UsageAlertReadsController = resourceController(usageAlertResource, {
  path: 'v1/usage-alerts', tag: USAGE_SECTION, noun: 'usage alert', type: UsageAlertResponse, operations: 'UsageAlertsController',
  list: { summary: 'List usage alerts', description: 'Newest first by default; filter by `subscription_id` and `status`.' },
  retrieve: { summary: 'Retrieve a usage alert', description: 'With `last_triggered`, once it fired; with `as_of` as it was at that moment, rebuilt from its events (404 before it existed).', problems: { 404: ['usage_alert.not_found'] } },
});
