import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { DomainError, keyedObject } from '@tally/kernel';
import { InvoiceDryRun, type InvoiceResource } from '@tally/invoicing';
import { onClockOf, type RequestContext } from '@tally/cells';
import { Clocks, CommandRuntime } from '@tally/runtime';
import { periodAt } from '../domain/billing-cycle';
import { firstPeriod, firstTerms, TERMINAL, type Subscription } from '../domain/subscription.decider';
import { subscriptionAggregate } from '../subscription.aggregate';
import type { InvoiceRequest } from './invoice-request';
import { issueInput, SubscriptionInvoiceBuilder } from './subscription-invoice.builder';

export class GetUpcomingInvoiceQuery extends Query<InvoiceResource> {
  constructor(
    readonly context: RequestContext,
    readonly subscriptionId: string,
  ) {
    super();
  }
}

/**
 * Stripe's upcoming invoice: the invoice the subscription's next boundary would issue if the
 * current period closed now — the next period's licensed charges at the terms it will have, the
 * usage so far, the pending prorations and the coupons still in their duration, with tax —
 * priced and folded by the same code as the real one, and written nowhere. Its `id` is the one the
 * invoice will have.
 */
@QueryHandler(GetUpcomingInvoiceQuery)
export class GetUpcomingInvoiceHandler implements IQueryHandler<GetUpcomingInvoiceQuery, InvoiceResource> {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly clocks: Clocks,
    private readonly builder: SubscriptionInvoiceBuilder,
    private readonly dryRun: InvoiceDryRun,
  ) {}

  async execute({ context, subscriptionId }: GetUpcomingInvoiceQuery): Promise<InvoiceResource> {
    const cell = this.runtime.cellOf(context);
    const { state, clockId } = await this.runtime.load(cell, subscriptionAggregate, subscriptionId, context);
    if (state.status === 'none') throw subscriptionAggregate.notFound(subscriptionId);
    const onClock = onClockOf(context, clockId);
    const now = (await this.clocks.now(cell, clockId)).toISOString();
    const request = upcomingRequest(state, now);
    const draft = await this.builder.build(onClock, request);
    return this.dryRun.draft(onClock, issueInput(draft, request), now);
  }
}

/** What the subscription's cycle will ask for at the next boundary, as if the current period closed at `now`. */
export function upcomingRequest(subscription: Subscription, now: string): InvoiceRequest {
  if (TERMINAL.includes(subscription.status) || subscription.status === 'pending_activation') {
    throw DomainError.notFound('subscription.no_upcoming_invoice', `Subscription ${subscription.id} is ${subscription.status}: it will issue no more invoices`);
  }
  const base = { subscription_id: subscription.id, customer_id: subscription.customerId, prorations: [...subscription.pendingProrations], coupons: [...subscription.coupons], collection: 'charge' as const };
  if (subscription.status === 'trialing') {
    const period = firstPeriod(subscription.trialEnd!, subscription.anchor, subscription.cadence);
    const { whole_period } = firstTerms(subscription, period);
    const licensed = { plan_code: subscription.planCode, quantities: subscription.quantities, period, ...(whole_period && { whole_period }) };
    return { ...base, key: `period:${period.start}`, billing_reason: 'subscription_cycle', plan_code: subscription.planCode, licensed, usage: null, period_number: 1 };
  }
  const planCode = subscription.scheduled.planCode ?? subscription.planCode;
  const usage = { plan_code: subscription.planCode, period: { start: subscription.period.start, end: now } };
  if (subscription.scheduledCancellation) {
    return { ...base, key: `final:${subscription.period.end}`, billing_reason: 'subscription_cancel', plan_code: subscription.planCode, licensed: null, usage, period_number: subscription.paidPeriods };
  }
  const next = periodAt(subscription.anchor, subscription.cadence, subscription.period.end);
  const quantities = keyedObject([...Object.entries(subscription.quantities), ...Object.entries(subscription.scheduled.quantities)]);
  return {
    ...base,
    key: `period:${next.start}`,
    billing_reason: 'subscription_cycle',
    plan_code: planCode,
    licensed: { plan_code: planCode, quantities, period: { start: next.start, end: next.end } },
    usage,
    period_number: subscription.paidPeriods + 1,
  };
}
