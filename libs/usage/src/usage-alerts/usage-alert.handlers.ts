import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { IdGenerator } from '@tally/kernel';
import { ID_GENERATOR, onClockOf, type RequestContext } from '@tally/cells';
import { Clocks, commandStep, CommandRuntime, reactionCommandId } from '@tally/runtime';
import { loadPlan, subscriptionAggregate, TERMINAL, usageMeters } from '@tally/subscriptions';
import { meterProblems, usageRefused } from '../domain/usage-batch.decide';
import { MeteredSubscriptions } from '../metered-subscriptions';
import { MeteredUsageReadings } from '../metered-usage.readings';
import { usageAlertAggregate } from './usage-alert.aggregate';
import { GetUsageAlertHandler, ListUsageAlertsHandler } from './usage-alert.queries';
import type { UsageAlertResource } from './usage-alert.view';
import { SubscriptionUsageAlerts } from './subscription-usage-alerts';
import { USAGE_ALERT_INDEX_REACTION } from './usage-alert-index.reaction';

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

@CommandHandler(CreateUsageAlertCommand)
export class CreateUsageAlertHandler implements ICommandHandler<CreateUsageAlertCommand, UsageAlertResource> {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly metered: MeteredSubscriptions,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly index: SubscriptionUsageAlerts,
  ) {}

  /** An alert on a meter of a subscription that still bills it, refused as usage of that meter would be. */
  async execute({ context, input }: CreateUsageAlertCommand): Promise<UsageAlertResource> {
    const subscription = await this.metered.of(context, input.subscription_id);
    const problems = meterProblems(subscription, input.subscription_id, input.meter);
    if (problems.length > 0) throw usageRefused(problems);
    const id = this.ids.next('ualt');
    const onClock = onClockOf(context, subscription.exists ? subscription.clockId : undefined);
    const created = await this.runtime.execute(usageAlertAggregate, id, { type: 'CreateUsageAlert', data: { usage_alert_id: id, ...input } }, onClock, { newStream: true });
    await this.index.record({ ...onClock, commandId: reactionCommandId(USAGE_ALERT_INDEX_REACTION, created.appended[0].id) }, id);
    return created.resource!;
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
    private readonly index: SubscriptionUsageAlerts,
    private readonly clocks: Clocks,
    private readonly usage: MeteredUsageReadings,
  ) {}

  async execute({ context, subscriptionIds }: CheckUsageAlertsCommand): Promise<void> {
    for (const subscriptionId of subscriptionIds) {
      const alerts = await this.index.of(context, subscriptionId);
      if (alerts.length > 0) await this.check(context, subscriptionId, alerts);
    }
  }

  private async check(context: RequestContext, subscriptionId: string, alerts: readonly { id: string; meter: string }[]): Promise<void> {
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

export const usageAlertHandlers = [CreateUsageAlertHandler, ArchiveUsageAlertHandler, CheckUsageAlertsHandler, GetUsageAlertHandler, ListUsageAlertsHandler];
