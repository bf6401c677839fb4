import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { DomainError } from '@tally/kernel';
import { onClockOf, type RequestContext } from '@tally/cells';
import { CommandRuntime, instantParameter, invalidParameter } from '@tally/runtime';
import { periodAt, type Period } from '../domain/billing-cycle';
import type { Subscription } from '../domain/subscription.decider';
import { loadPlan, usageMeters } from '../plan-terms';
import { subscriptionAggregate } from '../subscription.aggregate';
import { USAGE_READINGS, type UsageReadings } from './usage-readings.port';

export interface UsageSummary {
  object: 'usage_summary';
  subscription_id: string;
  period: Period;
  meters: { meter: string; quantity: string; events: number; late_events: number }[];
}

/** `current`, or the period that closed on `closed_at` (without it, the last one that closed). */
export type UsagePeriod = { period: 'current' } | { period: 'closed'; closedAt: Date | null };

export class GetUsageSummaryQuery extends Query<UsageSummary> {
  constructor(
    readonly context: RequestContext,
    readonly subscriptionId: string,
    readonly which: UsagePeriod,
  ) {
    super();
  }
}

/**
 * `period=current` (the default, which ignores a well-formed `closed_at`), or `period=closed` with
 * `closed_at` (the default when `closed_at` is given); `period=closed` alone is the last period
 * that closed. A malformed `closed_at` is refused whatever the period.
 */
export function parseUsagePeriod(period: unknown, closedAt: unknown): UsagePeriod {
  if (period !== undefined && period !== 'current' && period !== 'closed') throw invalidParameter('period', 'period is current or closed');
  const closedAtInstant = closedAt === undefined ? null : instantParameter('closed_at', closedAt);
  const closed = period === 'closed' || (period === undefined && closedAt !== undefined);
  return closed ? { period: 'closed', closedAt: closedAtInstant } : { period: 'current' };
}

/** What the subscription used of each meter of its plan's usage components in a period (the spec's usage summary). */
@QueryHandler(GetUsageSummaryQuery)
export class GetUsageSummaryHandler implements IQueryHandler<GetUsageSummaryQuery, UsageSummary> {
  constructor(
    private readonly runtime: CommandRuntime,
    @Inject(USAGE_READINGS) private readonly usage: UsageReadings,
  ) {}

  async execute({ context, subscriptionId, which }: GetUsageSummaryQuery): Promise<UsageSummary> {
    const cell = this.runtime.cellOf(context);
    const { state, clockId, resource } = await this.runtime.load(cell, subscriptionAggregate, subscriptionId, context);
    if (state.status === 'none') throw subscriptionAggregate.notFound(subscriptionId);
    const stoppedAt = resource!.canceled_at ?? resource!.ended_at;
    const period = which.period === 'current' ? lastPeriod(state, stoppedAt) : closedPeriod(state, which.closedAt, stoppedAt);
    const plan = await loadPlan(this.runtime, context, state.planCode);
    const readings = await this.usage.read(onClockOf(context, clockId), subscriptionId, usageMeters(plan, period.start), period);
    return {
      object: 'usage_summary',
      subscription_id: subscriptionId,
      period,
      meters: [...readings].map(([meter, reading]) => ({ meter, quantity: reading.quantity.toFixed(), events: reading.events, late_events: reading.late_events })),
    };
  }
}

/**
 * The period open now, or for a subscription canceled or ended (`stoppedAt`) its last period,
 * which closed then: a cancellation `now` cuts it short, as its final invoice does.
 */
function lastPeriod(subscription: Subscription, stoppedAt: string | null): Period {
  const { start, end } = subscription.period;
  if (stoppedAt === null || stoppedAt >= end) return subscription.period;
  return { start, end: stoppedAt > start ? stoppedAt : start };
}

/**
 * The period that ended on `closedAt`'s day (or the one holding it), if it has closed: one of the
 * cycle before the current one, or a stopped subscription's last period. By default the last that
 * closed.
 */
function closedPeriod(subscription: Subscription, closedAt: Date | null, stoppedAt: string | null): Period {
  const last = stoppedAt === null ? null : lastPeriod(subscription, stoppedAt);
  const at = new Date((closedAt ?? new Date(last?.end ?? subscription.period.start)).getTime() - 1).toISOString();
  const notClosed = () => DomainError.invalid('subscription.period_not_closed', `No period of subscription ${subscription.id} closed on ${at}`, [{ field: 'closed_at', code: 'subscription.period_not_closed', message: 'a date on which a period of this subscription closed' }]);
  if (last && at >= last.start) {
    if (at < last.end) return last;
    throw notClosed();
  }
  if (at < subscription.anchor) throw notClosed();
  const { start, end } = periodAt(subscription.anchor, subscription.cadence, at);
  if (end > subscription.period.start) throw notClosed();
  return { start, end };
}
