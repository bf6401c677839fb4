import type { AggregateDefinition } from '@tally/runtime';
import { usageAlertDecider, usageAlertNotFound, type UsageAlertCommand, type UsageAlertState } from '../domain/usage-alert.decider';
import type { UsageAlertEvent } from '../domain/usage-alert.events';
import { usageAlertView, type UsageAlertResource } from './usage-alert.view';

export const usageAlertAggregate: AggregateDefinition<UsageAlertState, UsageAlertCommand, UsageAlertEvent, UsageAlertResource> = {
  type: 'usage_alert',
  decider: usageAlertDecider,
  view: usageAlertView,
  notFound: usageAlertNotFound,
};
