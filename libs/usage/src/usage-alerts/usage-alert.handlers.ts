import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { IdGenerator } from '@tally/kernel';
import { ID_GENERATOR, onClockOf, type RequestContext } from '@tally/cells';
import { Clocks, commandStep, CommandRuntime, ScopedReads } from '@tally/runtime';
import { loadPlan, subscriptionAggregate, TERMINAL, usageMeters } from '@tally/subscriptions';
import { meterProblems, usageRefused } from '../domain/usage-batch.decide';
import { MeteredSubscriptions } from '../metered-subscriptions';
import { MeteredUsageReadings } from '../metered-usage.readings';
import { usageAlertAggregate } from './usage-alert.aggregate';
import { usageAlertView, type UsageAlertResource } from './usage-alert.view';

export class CreateUsageAlertCommand extends Command<UsageAlertResource> {
  constructor(
    readonly context: RequestContext,
    readonly input: { subscription_id: string; meter: string; threshold: string; title: string | null },
  ) {
    super();
  }
}

export class ArchiveUsageAlertCommand extends Command<UsageAlertResource> {
  constructor(
    readonly context: RequestContext,
    readonly usageAlertId: string,
  ) {
    super();
  }
}

/** Sent by the usage alerts reaction for each accepted batch: check the alerts of the subscriptions it reached. */
export class CheckUsageAlertsCommand extends Command<void> {
  constructor(
    readonly context: RequestContext,
    readonly subscriptionIds: readonly string[],
  ) {
    super();
  }
}

/** More active alerts than one batch's subscriptions reasonably have; beyond it, the first ones by creation are checked. */
const MAX_ALERTS_CHECKED = 1000;

@CommandHandler(CreateUsageAlertCommand)
export class CreateUsageAlertHandler implements ICommandHandler<CreateUsageAlertCommand, UsageAlertResource> {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly metered: MeteredSubscriptions,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  /** An alert on a meter of a subscription that still bills it, refused as usage of that meter would be. */
  async execute({ context, input }: CreateUsageAlertCommand): Promise<UsageAlertResource> {
    const subscription = await this.metered.of(context, input.subscription_id);
    const problems = meterProblems(subscription, input.subscription_id, input.meter);
    if (problems.length > 0) throw usageRefused(problems);
    const id = this.ids.next('ualt');
    const onClock = onClockOf(context, subscription.exists ? subscription.clockId : undefined);
    return (await this.runtime.execute(usageAlertAggregate, id, { type: 'CreateUsageAlert', data: { usage_alert_id: id, ...input } }, onClock, { newStream: true })).resource!;
  }
}

@CommandHandler(ArchiveUsageAlertCommand)
export class ArchiveUsageAlertHandler implements ICommandHandler<ArchiveUsageAlertCommand, UsageAlertResource> {
  constructor(private readonly runtime: CommandRuntime) {}

  async execute({ context, usageAlertId }: ArchiveUsageAlertCommand): Promise<UsageAlertResource> {
    return (await this.runtime.execute(usageAlertAggregate, usageAlertId, { type: 'ArchiveUsageAlert', data: { usage_alert_id: usageAlertId } }, context)).resource!;
  }
}

/**
 * Reads each active alert's meter as its subscription's plan prices it, in the current period,
 * once the batch is counted, and lets the alert decide whether it fires (once a period).
 */
@CommandHandler(CheckUsageAlertsCommand)
export class CheckUsageAlertsHandler implements ICommandHandler<CheckUsageAlertsCommand, void> {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly reads: ScopedReads,
    private readonly clocks: Clocks,
    private readonly usage: MeteredUsageReadings,
  ) {}

  async execute({ context, subscriptionIds }: CheckUsageAlertsCommand): Promise<void> {
    const where = [
      { field: 'subscription_id', op: 'in' as const, value: subscriptionIds },
      { field: 'status', op: 'eq' as const, value: 'active' },
    ];
    const { items: alerts } = await this.reads.list<UsageAlertResource>(context, usageAlertView.collection, { where, limit: MAX_ALERTS_CHECKED });
    for (const subscriptionId of new Set(alerts.map((alert) => alert.subscription_id))) {
      await this.check(context, subscriptionId, alerts.filter((alert) => alert.subscription_id === subscriptionId));
    }
  }

  private async check(context: RequestContext, subscriptionId: string, alerts: readonly UsageAlertResource[]): Promise<void> {
    const cell = this.runtime.cellOf(context);
    const { state, clockId } = await this.runtime.load(cell, subscriptionAggregate, subscriptionId, context);
    if (state.status === 'none' || TERMINAL.includes(state.status)) return;
    const onClock = onClockOf(context, clockId);
    const meters = usageMeters(await loadPlan(this.runtime, onClock, state.planCode), state.period.start).filter(({ meter }) => alerts.some((alert) => alert.meter === meter));
    const readings = await this.usage.read(onClock, subscriptionId, meters, state.period);
    const at = (await this.clocks.now(cell, clockId)).toISOString();
    for (const alert of alerts) {
      const reading = readings.get(alert.meter);
      if (!reading) continue;
      const data = { usage_alert_id: alert.id, period_start: state.period.start, quantity: reading.quantity.toFixed(), at };
      await this.runtime.execute(usageAlertAggregate, alert.id, { type: 'CheckUsageAlert', data }, commandStep(context, alert.id));
    }
  }
}

export const usageAlertHandlers = [CreateUsageAlertHandler, ArchiveUsageAlertHandler, CheckUsageAlertsHandler];
