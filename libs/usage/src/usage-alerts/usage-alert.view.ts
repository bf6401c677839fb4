import type { ResourceView } from '@tally/runtime';
import type { UsageAlertEvent } from '../domain/usage-alert.events';

export const USAGE_ALERT_STATUSES = ['active', 'archived'] as const;
export type UsageAlertStatus = (typeof USAGE_ALERT_STATUSES)[number];

export interface UsageAlertResource {
  [field: string]: unknown;
  id: string;
  object: 'usage_alert';
  subscription_id: string;
  meter: string;
  threshold: string;
  title: string | null;
  status: UsageAlertStatus;
  /** The last time it fired: in which period, at what aggregate. */
  last_triggered: { period_start: string; quantity: string; triggered_at: string } | null;
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

/** A usage alert as the API shows it; its firing is published as `subscription.usage_threshold_crossed`. */
export const usageAlertView: ResourceView<UsageAlertResource, UsageAlertEvent> = {
  aggregateType: 'usage_alert',
  collection: 'usage_alerts',

  apply(alert, event) {
    const at = event.metadata.occurred_at;
    if (event.type === 'UsageAlertCreated') {
      const { usage_alert_id, subscription_id, meter, threshold, title } = event.data;
      return {
        id: usage_alert_id,
        object: 'usage_alert',
        subscription_id,
        meter,
        threshold,
        title,
        status: 'active',
        last_triggered: null,
        livemode: event.metadata.environment === 'live',
        created_at: at,
        updated_at: at,
      };
    }
    if (!alert) return undefined;
    switch (event.type) {
      case 'UsageAlertTriggered': {
        const { period_start, quantity, triggered_at } = event.data;
        return { ...alert, last_triggered: { period_start, quantity, triggered_at }, updated_at: at };
      }
      case 'UsageAlertArchived':
        return { ...alert, status: 'archived', updated_at: at };
    }
  },

  publicTypes: ['subscription.usage_threshold_crossed'],
  publicType: (event) => (event.type === 'UsageAlertTriggered' ? 'subscription.usage_threshold_crossed' : undefined),
};
