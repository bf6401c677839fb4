import { defineView, type StampedResource } from '@tally/runtime';
import type { UsageAlertEvent } from '../domain/usage-alert.events';

export const USAGE_ALERT_STATUSES = ['active', 'archived'] as const;
export type UsageAlertStatus = (typeof USAGE_ALERT_STATUSES)[number];

export interface UsageAlertResource extends StampedResource {
  object: 'usage_alert';
  subscription_id: string;
  meter: string;
  threshold: string;
  title: string | null;
  status: UsageAlertStatus;
  /** The last time it fired: in which period, at what aggregate. */
  last_triggered: { period_start: string; quantity: string; triggered_at: string } | null;
}

/** A usage alert as the API shows it; its firing is published as `subscription.usage_threshold_crossed`. */
export const usageAlertView = defineView<UsageAlertResource, UsageAlertEvent, 'UsageAlertCreated'>({
  object: 'usage_alert',
  created: {
    type: 'UsageAlertCreated',
    fields: ({ subscription_id, meter, threshold, title }) => ({ subscription_id, meter, threshold, title, status: 'active', last_triggered: null }),
  },
  changes: {
    UsageAlertTriggered: (_alert, { period_start, quantity, triggered_at }) => ({ last_triggered: { period_start, quantity, triggered_at } }),
    UsageAlertArchived: () => ({ status: 'archived' }),
  },
  publicTypes: { UsageAlertCreated: undefined, UsageAlertTriggered: 'subscription.usage_threshold_crossed', UsageAlertArchived: undefined },
});
