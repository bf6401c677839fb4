import { Body, Controller, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { DomainError } from '@tally/kernel';
import { API_KEY_AUTH, ApiAuthenticated, ApiTag, Ctx, IdempotencyKey } from '@tally/http';
import { ApiUsageAccepted } from './api-usage-accepted.decorator';
import type { RequestContext } from '@tally/cells';
import { UsageBatchDto, UsageBatchResponse, UsageEventDto, UsageEventResponse } from './dto/usage.dto';
import { eventField } from './domain/usage-batch.decide';
import { parseUsageEvents, UsageIngest } from './usage-ingest';
import { acceptedBatch, acceptedEvent } from './usage-event.resource';
import { USAGE_SECTION } from './usage.api-sections';

export const MAX_BATCH_EVENTS = 1000;

/** Every refusal a usage body can get; the problem's code is the first kind of failure found (docs/errors.md), and `errors` names every failing event. */
export const USAGE_PROBLEMS = {
  400: [
    'request.invalid_body',
    'usage.invalid_quantity',
    'usage.invalid_timestamp',
    'usage.timestamp_out_of_range',
    'usage.quantity_out_of_range',
    'usage.missing_field',
    'usage.invalid_subscription_id',
    'usage.invalid_meter',
    'usage.invalid_external_id',
    'usage.invalid_properties',
    'usage.invalid_event',
    'usage.invalid_batch',
  ],
  404: ['usage.subscription_not_found'],
  409: ['usage.subscription_canceled'],
  422: ['usage.meter_not_on_subscription'],
};

@Controller('v1/usage')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag(USAGE_SECTION)
export class UsageController {
  constructor(private readonly ingest: UsageIngest) {}

  @Post()
  @ApiOperation({
    summary: 'Record a usage event',
    description:
      'Accepted (202) once stored; counted within milliseconds, and a usage summary read after the 202 already counts it. Its dedupe key is `external_id`, else the Idempotency-Key, else a generated UUID: a later event with the same subscription, meter and key changes nothing.',
  })
  @ApiUsageAccepted(UsageEventDto, UsageEventResponse, USAGE_PROBLEMS)
  async record(@Ctx() context: RequestContext, @Body() body: Record<string, unknown>, @IdempotencyKey() idempotencyKey: string | undefined): Promise<UsageEventResponse> {
    const { drafts, problems } = parseUsageEvents([body], () => '');
    return acceptedEvent(await this.ingest.accept(context, drafts, eventField(() => ''), () => idempotencyKey, problems));
  }

  @Post('batch')
  @ApiOperation({
    summary: 'Record a batch of usage events',
    description:
      'Up to 1000 events, accepted all together or not at all: a refusal names every failing event by its index, and stores none. Costs one rate-limit unit per started hundred events.',
  })
  @ApiUsageAccepted(UsageBatchDto, UsageBatchResponse, USAGE_PROBLEMS)
  async recordBatch(@Ctx() context: RequestContext, @Body() body: Record<string, unknown>): Promise<UsageBatchResponse> {
    const events = batchEvents(body);
    const at = (index: number) => `events[${index}]`;
    const { drafts, problems } = parseUsageEvents(events, at);
    return acceptedBatch(await this.ingest.accept(context, drafts, eventField(at), undefined, problems));
  }
}

/** The `events` of a batch body: an array of 1 to 1000, and nothing else in the body. */
export function batchEvents(body: Record<string, unknown>, field = 'events'): unknown[] {
  const unknown = Object.keys(body).filter((key) => key !== field);
  if (unknown.length > 0) throw DomainError.invalid('request.invalid_body', `The body takes ${field} only`, unknown.map((key) => ({ field: key, code: 'field.unknown', message: `property ${key} should not exist` })));
  const events = body[field];
  if (!Array.isArray(events) || events.length === 0 || events.length > MAX_BATCH_EVENTS) {
    throw DomainError.invalid('usage.invalid_batch', `${field} must be an array of 1 to ${MAX_BATCH_EVENTS} events`, [{ field, code: 'usage.invalid_batch', message: `an array of 1 to ${MAX_BATCH_EVENTS} events` }]);
  }
  return events;
}
