import Big from 'big.js';
import { DomainError, type Command, type Decider } from '@tally/kernel';
import type { UsageAlertCreated, UsageAlertEvent } from './usage-alert.events';

export type UsageAlertState =
  | { status: 'none' }
  | { status: 'active' | 'archived'; id: string; subscriptionId: string; meter: string; threshold: string; triggeredPeriods: readonly string[] };

export type CreateUsageAlert = Command<'CreateUsageAlert', UsageAlertCreated['data']>;
/** What the alert's meter reads now in the period starting at `period_start`; it fires if that reaches the threshold, once a period. */
export type CheckUsageAlert = Command<'CheckUsageAlert', { usage_alert_id: string; period_start: string; quantity: string; at: string }>;
export type ArchiveUsageAlert = Command<'ArchiveUsageAlert', { usage_alert_id: string }>;
export type UsageAlertCommand = CreateUsageAlert | CheckUsageAlert | ArchiveUsageAlert;

/** Periods an alert remembers having fired in: enough to fire once in each, since usage only reaches the current one and the last. */
const REMEMBERED_PERIODS = 3;

export const usageAlertNotFound = (id: string) => DomainError.notFound('usage_alert.not_found', `No usage alert ${id}`);

export const usageAlertDecider: Decider<UsageAlertState, UsageAlertCommand, UsageAlertEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (command.type === 'CreateUsageAlert') {
      if (!new Big(command.data.threshold).gt(0)) {
        throw DomainError.invalid('usage_alert.invalid_threshold', 'The threshold must be above 0', [{ field: 'threshold', code: 'usage_alert.invalid_threshold', message: 'a decimal above 0' }]);
      }
      return state.status === 'none' ? [{ type: 'UsageAlertCreated', data: command.data }] : [];
    }
    if (state.status === 'none') throw usageAlertNotFound(command.data.usage_alert_id);
    switch (command.type) {
      case 'CheckUsageAlert': {
        const { period_start, quantity, at } = command.data;
        const fires = state.status === 'active' && !state.triggeredPeriods.includes(period_start) && new Big(quantity).gte(state.threshold);
        return fires ? [{ type: 'UsageAlertTriggered', data: { usage_alert_id: state.id, subscription_id: state.subscriptionId, period_start, quantity, triggered_at: at } }] : [];
      }
      case 'ArchiveUsageAlert':
        return state.status === 'active' ? [{ type: 'UsageAlertArchived', data: { usage_alert_id: state.id } }] : [];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'UsageAlertCreated': {
        const { usage_alert_id, subscription_id, meter, threshold } = event.data;
        return { status: 'active', id: usage_alert_id, subscriptionId: subscription_id, meter, threshold, triggeredPeriods: [] };
      }
      case 'UsageAlertTriggered':
        return state.status === 'none' ? state : { ...state, triggeredPeriods: [...state.triggeredPeriods, event.data.period_start].slice(-REMEMBERED_PERIODS) };
      case 'UsageAlertArchived':
        return state.status === 'none' ? state : { ...state, status: 'archived' };
    }
  },
};
