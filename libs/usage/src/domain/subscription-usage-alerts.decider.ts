import { assertNever, type Command, type Decider } from '@tally/kernel';
import type { SubscriptionUsageAlertRecorded, SubscriptionUsageAlertsEvent } from './subscription-usage-alerts.events';

/**
 * The active usage alerts of a subscription, each with its meter, kept on the write side from the
 * alerts' events, so that checking them after a batch reads the event store, not a read model.
 */
export type SubscriptionUsageAlertsState = { status: 'none' } | { status: 'indexed'; meterOf: ReadonlyMap<string, string> };

export type RecordSubscriptionUsageAlert = Command<'RecordSubscriptionUsageAlert', SubscriptionUsageAlertRecorded['data']>;

export type SubscriptionUsageAlertsCommand = RecordSubscriptionUsageAlert;

export const subscriptionUsageAlertsDecider: Decider<SubscriptionUsageAlertsState, SubscriptionUsageAlertsCommand, SubscriptionUsageAlertsEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'RecordSubscriptionUsageAlert': {
        const indexed = state.status === 'indexed' && state.meterOf.has(command.data.usage_alert_id);
        return indexed === command.data.active ? [] : [{ type: 'SubscriptionUsageAlertRecorded', data: command.data }];
      }
      default:
        return assertNever(command.type);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'SubscriptionUsageAlertRecorded': {
        const { usage_alert_id, meter, active } = event.data;
        const meterOf = new Map(state.status === 'indexed' ? state.meterOf : []);
        if (active) meterOf.set(usage_alert_id, meter);
        else meterOf.delete(usage_alert_id);
        return { status: 'indexed', meterOf };
      }
      default:
        return assertNever(event.type);
    }
  },
};

/** The subscription's active alerts, oldest first. */
export const activeUsageAlerts = (state: SubscriptionUsageAlertsState): { id: string; meter: string }[] =>
  state.status === 'none' ? [] : [...state.meterOf].map(([id, meter]) => ({ id, meter }));
