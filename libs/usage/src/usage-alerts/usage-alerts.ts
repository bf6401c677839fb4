import { Inject, Injectable } from '@nestjs/common';
import type { IdGenerator } from '@tally/kernel';
import { ID_GENERATOR, onClockOf, type RequestContext } from '@tally/cells';
import { Clocks, CommandRuntime, Commands, reactionCommandId } from '@tally/runtime';
import { loadPlan, subscriptionAggregate, TERMINAL, usageMeters } from '@tally/subscriptions';
import { meterProblems, usageRefused } from '../domain/usage-batch.decide';
import { MeteredSubscriptions } from '../metered-subscriptions';
import { MeteredUsageReadings } from '../metered-usage.readings';
import { usageAlertAggregate } from './usage-alert.aggregate';
import type { UsageAlertResource } from './usage-alert.view';
import { SubscriptionUsageAlerts } from './subscription-usage-alerts';
import { USAGE_ALERT_INDEX_REACTION } from './usage-alert-index.reaction';

/** Usage alerts' steps that read beyond the alert: creating one on a metered subscription, and checking the alerts a batch reached. */
@Injectable()
export class UsageAlerts {
  constructor(
    private readonly commands: Commands,
    private readonly runtime: CommandRuntime,
    private readonly index: SubscriptionUsageAlerts,
    private readonly clocks: Clocks,
    private readonly metered: MeteredSubscriptions,
    private readonly usage: MeteredUsageReadings,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  /** An alert on a meter of a subscription that still bills it, refused as usage of that meter would be. */
  async create(context: RequestContext, input: { subscription_id: string; meter: string; threshold: string; title: string | null }): Promise<UsageAlertResource> {
    const subscription = await this.metered.of(context, input.subscription_id);
    const problems = meterProblems(subscription, input.subscription_id, input.meter);
    if (problems.length > 0) throw usageRefused(problems);
    const id = this.ids.next('ualt');
    const onClock = onClockOf(context, subscription.exists ? subscription.clockId : undefined);
    const created = await this.commands.send(usageAlertAggregate, id, { type: 'CreateUsageAlert', data: { usage_alert_id: id, ...input } }, onClock, { newStream: true });
    // The index learns of the alert before the request answers, under the id its reaction would use (it then changes nothing).
    await this.index.record({ ...onClock, commandId: reactionCommandId(USAGE_ALERT_INDEX_REACTION, created.appended[0].id) }, id);
    return created.resource!;
  }

  /**
   * The usage alerts reaction's step for each accepted batch: reads each active alert's meter of
   * the subscriptions it reached as their plans price it, in the current period, once the batch is
   * counted, and lets the alert decide whether it fires (once a period).
   */
  async check(context: RequestContext, subscriptionIds: readonly string[]): Promise<void> {
    for (const subscriptionId of subscriptionIds) {
      const alerts = await this.index.of(context, subscriptionId);
      if (alerts.length > 0) await this.checkSubscription(context, subscriptionId, alerts);
    }
  }

  private async checkSubscription(context: RequestContext, subscriptionId: string, alerts: readonly { id: string; meter: string }[]): Promise<void> {
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
      await this.commands.send(usageAlertAggregate, alert.id, { type: 'CheckUsageAlert', data }, context);
    }
  }
}
