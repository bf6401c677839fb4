import { Injectable } from '@nestjs/common';
import { DomainError } from '@tally/kernel';
import type { RequestContext } from '@tally/cells';
import { CommandRuntime, Commands, type AggregateDefinition } from '@tally/runtime';
import {
  activeUsageAlerts,
  subscriptionUsageAlertsDecider,
  type SubscriptionUsageAlertsCommand,
  type SubscriptionUsageAlertsState,
} from '../domain/subscription-usage-alerts.decider';
import type { SubscriptionUsageAlertsEvent } from '../domain/subscription-usage-alerts.events';
import { usageAlertAggregate } from './usage-alert.aggregate';

/** One stream per subscription, `subscription_usage_alerts-<subscription id>`: internal, no view and no public event. */
export const subscriptionUsageAlertsAggregate: AggregateDefinition<SubscriptionUsageAlertsState, SubscriptionUsageAlertsCommand, SubscriptionUsageAlertsEvent> = {
  type: 'subscription_usage_alerts',
  decider: subscriptionUsageAlertsDecider,
  notFound: (id) => DomainError.notFound('subscription.not_found', `No subscription ${id}`),
};

/** The active usage alerts of each subscription, on the write side: recorded from an alert's stream, read by the alerts' check. */
@Injectable()
export class SubscriptionUsageAlerts {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
  ) {}

  /** Records the alert as its stream shows it now: active, or archived. */
  async record(context: RequestContext, usageAlertId: string): Promise<void> {
    const { state } = await this.runtime.load(this.runtime.cellOf(context), usageAlertAggregate, usageAlertId, context);
    if (state.status === 'none') return;
    const data = { subscription_id: state.subscriptionId, usage_alert_id: state.id, meter: state.meter, active: state.status === 'active' };
    await this.commands.send(subscriptionUsageAlertsAggregate, state.subscriptionId, { type: 'RecordSubscriptionUsageAlert', data }, context);
  }

  async of(context: RequestContext, subscriptionId: string): Promise<{ id: string; meter: string }[]> {
    return activeUsageAlerts((await this.runtime.load(this.runtime.cellOf(context), subscriptionUsageAlertsAggregate, subscriptionId, context)).state);
  }
}
