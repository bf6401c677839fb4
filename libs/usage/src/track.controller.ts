import { Body, Controller, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { API_KEY_AUTH, ApiAuthenticated, ApiTag, Ctx, IdempotencyKey } from '@tally/http';
import { ApiUsageAccepted } from './api-usage-accepted.decorator';
import type { RequestContext } from '@tally/cells';
import { TrackBulkDto, TrackEventDto } from './dto/track.dto';
import { UsageBatchResponse, UsageEventResponse } from './dto/usage.dto';
import { batchEvents, USAGE_PROBLEMS } from './usage.controller';
import { acceptedBatch, acceptedEvent } from './usage-event.resource';
import { UsageTracking } from './usage-tracking';
import { USAGE_SECTION } from './usage.api-sections';

const TRACK_PROBLEMS = { ...USAGE_PROBLEMS, 409: [...USAGE_PROBLEMS[409], 'track.no_subscription', 'track.ambiguous_subscription'] };

/** The integration guide's usage operations: by customer and feature rather than by subscription and meter. */
@Controller('v1/track')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag(USAGE_SECTION)
export class TrackController {
  constructor(private readonly tracking: UsageTracking) {}

  @Post()
  @ApiOperation({
    summary: 'Track usage of a feature',
    description:
      'The integration guide’s form of `POST /v1/usage`: `feature_code` is the meter, `value` the quantity, and the event goes to the customer’s one subscription (not canceled or ended) whose plan meters the feature; 409 when there is none or more than one. The dedupe key is `dedup_key`, else the Idempotency-Key, else a generated time-ordered UUID; `timestamp` defaults to now on the subscription’s clock.',
  })
  @ApiUsageAccepted(TrackEventDto, UsageEventResponse, TRACK_PROBLEMS)
  async track(@Ctx() context: RequestContext, @Body() body: Record<string, unknown>, @IdempotencyKey() idempotencyKey: string | undefined): Promise<UsageEventResponse> {
    return acceptedEvent(await this.tracking.track(context, [body], () => '', idempotencyKey));
  }

  @Post('bulk')
  @ApiOperation({ summary: 'Track usage in bulk', description: 'Up to 1000 tracked events, accepted all together or not at all, as `POST /v1/usage/batch`.' })
  @ApiUsageAccepted(TrackBulkDto, UsageBatchResponse, TRACK_PROBLEMS)
  async bulk(@Ctx() context: RequestContext, @Body() body: Record<string, unknown>): Promise<UsageBatchResponse> {
    return acceptedBatch(await this.tracking.track(context, batchEvents(body), (index) => `events[${index}]`));
  }
}
