import type { Event } from '@tally/kernel';

/** What the subscription's alert index learned of one alert: that it watches `meter`, or, with `active` false, that it was archived. */
export type SubscriptionUsageAlertRecorded = Event<'SubscriptionUsageAlertRecorded', { subscription_id: string; usage_alert_id: string; meter: string; active: boolean }>;

export type SubscriptionUsageAlertsEvent = SubscriptionUsageAlertRecorded;
