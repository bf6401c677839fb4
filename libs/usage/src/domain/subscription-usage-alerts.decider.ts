import { indexMembers, membershipIndex, type Command, type MembershipIndexState } from '@tally/kernel';
import type { SubscriptionUsageAlertRecorded } from './subscription-usage-alerts.events';

/**
 * The active usage alerts of a subscription, each with its meter, kept on the write side from the
 * alerts' events, so that checking them after a batch reads the event store, not a read model.
 */
export type SubscriptionUsageAlertsState = MembershipIndexState<string>;

export type RecordSubscriptionUsageAlert = Command<'RecordSubscriptionUsageAlert', SubscriptionUsageAlertRecorded['data']>;

export type SubscriptionUsageAlertsCommand = RecordSubscriptionUsageAlert;

export const subscriptionUsageAlertsDecider = membershipIndex(
  { command: 'RecordSubscriptionUsageAlert', event: 'SubscriptionUsageAlertRecorded' },
  ({ usage_alert_id, active, meter }: SubscriptionUsageAlertRecorded['data']) => ({ member: usage_alert_id, joined: active, value: meter }),
);

/** The subscription's active alerts, oldest first. */
export const activeUsageAlerts = (state: SubscriptionUsageAlertsState): { id: string; meter: string }[] => [...indexMembers(state)].map(([id, meter]) => ({ id, meter }));
