import type { Event } from '@tally/kernel';

/** A usage alert: fires once per period when the subscription's aggregate of `meter` reaches `threshold`, as Stripe's billing alerts do. */
export type UsageAlertCreated = Event<'UsageAlertCreated', { usage_alert_id: string; subscription_id: string; meter: string; threshold: string; title: string | null }>;

/** The aggregate reached the threshold in the period starting at `period_start` (`subscription.usage_threshold_crossed`). */
export type UsageAlertTriggered = Event<'UsageAlertTriggered', { usage_alert_id: string; subscription_id: string; period_start: string; quantity: string; triggered_at: string }>;

/** It fires no more. */
export type UsageAlertArchived = Event<'UsageAlertArchived', { usage_alert_id: string }>;

export type UsageAlertEvent = UsageAlertCreated | UsageAlertTriggered | UsageAlertArchived;
