import { Body, Controller, Get, Headers, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import type { Response } from 'express';
import { API_KEY_AUTH, API_KEY_PROBLEMS, ApiAuthenticated, ApiIdempotent, ApiProblemResponses, ApiTag, ApiUpdate, Ctx, IDEMPOTENT_PROBLEMS, INSTANT_SCHEMA, parseIfMatch, resourceController, withRevision } from '@tally/http';
import { Commands } from '@tally/runtime';
import { InvoiceResponse, type InvoiceResource } from '@tally/invoicing';
import type { RequestContext } from '@tally/cells';
import { CancelSubscriptionDto, ChangeQuantityDto, CreateSubscriptionDto, PauseSubscriptionDto, UpdateSubscriptionDto } from './dto/subscription.dto';
import { SubscriptionResponse, UsageSummaryResponse } from './dto/subscription.response';
import { GetUpcomingInvoiceQuery } from './billing/upcoming-invoice';
import { GetUsageSummaryQuery, parseUsagePeriod, type UsageSummary } from './billing/usage-summary';
import type { SubscriptionCommand } from './domain/subscription.decider';
import { subscriptionAggregate } from './subscription.aggregate';
import { SubscriptionChanges } from './subscription-changes';
import { SubscriptionCreation } from './subscription-creation';
import { written, type SubscriptionWritten } from './subscription-written';
import { subscriptionResource } from './subscription.resource';
import type { SubscriptionResource } from './subscription.view';
import { SUBSCRIPTIONS_SECTION } from './subscriptions.api-sections';

const ETAG = { ETag: { description: 'The subscription’s revision, for `If-Match`', schema: { type: 'string', example: 'W/"3"' } } };
const WRITE_PROBLEMS = { 404: ['subscription.not_found'], 409: ['request.concurrent_update', 'subscription.already_canceled'] };

@Controller('v1/subscriptions')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag(SUBSCRIPTIONS_SECTION)
export class SubscriptionsController {
  constructor(
    private readonly creation: SubscriptionCreation,
    private readonly changes: SubscriptionChanges,
    private readonly commands: Commands,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Create a subscription',
    description:
      'Subscribes a customer to a plan. With a trial (the subscription’s `trial_days`, else the plan’s) it starts `trialing`; otherwise it is `active` at once and its first invoice is issued in the background. The subscription lives on its customer’s test clock, if any. Nothing is written when any part is refused.',
  })
  @HttpCode(200)
  @ApiOkResponse({ type: SubscriptionResponse, headers: ETAG })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, {
    400: ['request.invalid_metadata', 'subscription.invalid_trial_days', 'subscription.invalid_quantity', 'subscription.duplicate_coupon'],
    404: ['customer.not_found', 'plan.not_found', 'coupon.not_found'],
    409: ['plan.archived', 'plan.deleted', 'coupon.expired', 'coupon.max_redemptions_reached', 'request.concurrent_update'],
    422: ['subscription.unknown_meter', 'subscription.invalid_billing_cycle_anchor', 'subscription.coupon_currency_mismatch', 'customer.payment_method_not_attached'],
  })
  async create(@Ctx() context: RequestContext, @Body() body: CreateSubscriptionDto, @Res({ passthrough: true }) response: Response): Promise<SubscriptionResource> {
    const input = {
      customer_id: body.customer_id,
      plan_code: body.plan_code,
      default_payment_method_id: body.default_payment_method_id ?? null,
      trial_days: body.trial_days,
      billing_cycle_anchor: body.billing_cycle_anchor ?? null,
      quantities: body.quantities ?? {},
      coupons: body.coupons ?? [],
      commitment: body.commitment ? { periods: body.commitment.periods, renewal: body.commitment.renewal } : null,
      metadata: body.metadata ?? {},
      payment_behavior: body.payment_behavior ?? 'allow_incomplete',
      proration_behavior: body.proration_behavior ?? 'create_prorations',
    };
    return withEtag(response, await this.creation.create(context, input));
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Update a subscription',
    description:
      'Changes the plan (same currency and interval), the metadata (merged key by key; an empty string removes a key) or the default payment method, all or nothing. A plan change follows `proration_behavior`: `create_prorations` credits the unused time of the old plan and charges the new one for the rest of the period on the next invoice; `none` switches at the next period boundary; `always_invoice` invoices the prorations at once.',
  })
  @ApiUpdate('subscription', { type: SubscriptionResponse, headers: ETAG }, {
    400: ['request.invalid_metadata'],
    404: ['subscription.not_found', 'plan.not_found'],
    409: ['request.concurrent_update', 'subscription.already_canceled', 'subscription.plan_currency_mismatch', 'subscription.plan_interval_mismatch', 'plan.archived', 'plan.deleted'],
    422: ['customer.payment_method_not_attached'],
  })
  async update(
    @Ctx() context: RequestContext,
    @Param('id') id: string,
    @Body() body: UpdateSubscriptionDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SubscriptionResource> {
    const patch = {
      ...(body.plan_code !== undefined && { plan_code: body.plan_code }),
      ...(body.proration_behavior !== undefined && { proration_behavior: body.proration_behavior }),
      ...(body.metadata !== undefined && { metadata: body.metadata }),
      ...(body.default_payment_method_id !== undefined && { default_payment_method_id: body.default_payment_method_id }),
    };
    return withEtag(response, await this.changes.update(context, id, patch, parseIfMatch(ifMatch)));
  }

  @Post(':id/quantities')
  @ApiOperation({
    summary: 'Change a quantity',
    description: 'Sets the quantity of one meter of the plan’s licensed components: `now` (prorated on the next invoice) or at the next period (`subscription.quantity_scheduled`).',
  })
  @HttpCode(200)
  @ApiOkResponse({ type: SubscriptionResponse, headers: ETAG })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, { ...WRITE_PROBLEMS, 400: ['subscription.invalid_quantity'], 422: ['subscription.unknown_meter'] })
  async changeQuantity(@Ctx() context: RequestContext, @Param('id') id: string, @Body() body: ChangeQuantityDto, @Res({ passthrough: true }) response: Response): Promise<SubscriptionResource> {
    const change = { meter: body.meter, quantity: body.quantity, effective_at: body.effective_at ?? 'now' };
    return withEtag(response, await this.changes.changeQuantity(context, id, change));
  }

  @Post(':id/pause')
  @ApiOperation({
    summary: 'Pause a subscription',
    description: 'Stops collection while periods keep renewing: their invoices are voided, marked uncollectible or kept as drafts (`behavior`). It resumes by itself at `until`, or by hand (`/resume`).',
  })
  @HttpCode(200)
  @ApiOkResponse({ type: SubscriptionResponse, headers: ETAG })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, { ...WRITE_PROBLEMS, 409: [...WRITE_PROBLEMS[409], 'subscription.already_paused', 'subscription.invalid_state'], 422: ['subscription.invalid_pause_until'] })
  pause(@Ctx() context: RequestContext, @Param('id') id: string, @Body() body: PauseSubscriptionDto, @Res({ passthrough: true }) response: Response): Promise<SubscriptionResource> {
    return this.send(context, id, (at) => ({ type: 'PauseSubscription', data: { subscription_id: id, at, until: body.until ?? null, behavior: body.behavior } }), response);
  }

  @Post(':id/resume')
  @ApiOperation({ summary: 'Resume a paused subscription', description: 'Makes a paused subscription `active` again now; its next invoice is collected as usual.' })
  @HttpCode(200)
  @ApiOkResponse({ type: SubscriptionResponse, headers: ETAG })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, { ...WRITE_PROBLEMS, 409: [...WRITE_PROBLEMS[409], 'subscription.not_paused'] })
  resume(@Ctx() context: RequestContext, @Param('id') id: string, @Res({ passthrough: true }) response: Response): Promise<SubscriptionResource> {
    return this.send(context, id, (at) => ({ type: 'ResumeSubscription', data: { subscription_id: id, at, automatic: false } }), response);
  }

  @Post(':id/cancel')
  @ApiOperation({
    summary: 'Cancel a subscription',
    description:
      '`now` cancels at once; the unused time of a paid period is credited on a final invoice issued at once. `period_end` cancels when the current period (or trial) ends. Canceling is final.',
  })
  @HttpCode(200)
  @ApiOkResponse({ type: SubscriptionResponse, headers: ETAG })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, WRITE_PROBLEMS)
  async cancel(@Ctx() context: RequestContext, @Param('id') id: string, @Body() body: CancelSubscriptionDto, @Res({ passthrough: true }) response: Response): Promise<SubscriptionResource> {
    return withEtag(response, await this.changes.cancel(context, id, { when: body.at ?? 'now', reason: body.reason ?? null }));
  }

  @Get(':id/upcoming-invoice')
  @ApiOperation({
    summary: 'Preview the upcoming invoice',
    description:
      'The draft invoice the next period boundary would issue if the current period closed now: the next period’s licensed charges at the terms it will have (scheduled changes applied), the usage so far, the pending prorations and the coupons still in their duration, with tax. Nothing is written; `id` is the id the invoice will have.',
  })
  @ApiOkResponse({ type: InvoiceResponse })
  @ApiProblemResponses(API_KEY_PROBLEMS, { 404: ['subscription.not_found', 'subscription.no_upcoming_invoice'] })
  upcomingInvoice(@Ctx() context: RequestContext, @Param('id') id: string): Promise<InvoiceResource> {
    return this.queries.execute(new GetUpcomingInvoiceQuery(context, id));
  }

  @Get(':id/usage')
  @ApiOperation({
    summary: 'Summarise a subscription’s usage',
    description:
      'What the subscription used of each meter of its plan’s usage components: in the current period (the default), or (`period=closed`) in the period that closed on `closed_at`, or the last one that closed without it. `closed_at` alone means `period=closed`.',
  })
  @ApiOkResponse({ type: UsageSummaryResponse })
  @ApiQuery({ name: 'period', required: false, schema: { type: 'string', enum: ['current', 'closed'], default: 'current' } })
  @ApiQuery({ name: 'closed_at', required: false, schema: INSTANT_SCHEMA, description: 'The date the period closed (with `period=current` it is checked, then ignored)' })
  @ApiProblemResponses(API_KEY_PROBLEMS, { 400: ['request.invalid_parameter', 'subscription.period_not_closed'], 404: ['subscription.not_found'] })
  usage(@Ctx() context: RequestContext, @Param('id') id: string, @Query('period') period: unknown, @Query('closed_at') closedAt: unknown): Promise<UsageSummary> {
    return this.queries.execute(new GetUsageSummaryQuery(context, id, parseUsagePeriod(period, closedAt)));
  }

  /** A command decided by the time of the subscription's clock, with nothing to look up. */
  private async send(context: RequestContext, id: string, command: (at: string) => SubscriptionCommand, response: Response): Promise<SubscriptionResource> {
    return withEtag(response, written(await this.commands.send(subscriptionAggregate, id, command, context)));
  }
}

const withEtag = (response: Response, written: SubscriptionWritten): SubscriptionResource => withRevision(response, written).subscription;

/** The list and the retrieve (with `as_of`), from the resource's definition. */
export const SubscriptionReadsController = resourceController(subscriptionResource, {
  path: 'v1/subscriptions', tag: SUBSCRIPTIONS_SECTION, noun: 'subscription', type: SubscriptionResponse, etag: ETAG, operations: 'SubscriptionsController',
  list: { summary: 'List subscriptions', description: 'Newest first by default; filter by status (a comma list), customer and plan.' },
  retrieve: { summary: 'Retrieve a subscription', description: 'The subscription as it is now, or with `as_of` as it was at that moment, rebuilt from its events (404 before it existed).', problems: { 404: ['subscription.not_found'] } },
});
