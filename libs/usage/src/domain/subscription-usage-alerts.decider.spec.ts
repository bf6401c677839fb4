import { DeciderSpecification } from '@tally/kernel/testing/decider-spec';
import { activeUsageAlerts, subscriptionUsageAlertsDecider } from './subscription-usage-alerts.decider';
import type { SubscriptionUsageAlertRecorded } from './subscription-usage-alerts.events';

const spec = DeciderSpecification.for(subscriptionUsageAlertsDecider);
const recorded = (usage_alert_id: string, active: boolean): SubscriptionUsageAlertRecorded => ({
  type: 'SubscriptionUsageAlertRecorded',
  data: { subscription_id: 'sub_1', usage_alert_id, meter: 'calls', active },
});
const record = (usage_alert_id: string, active: boolean) => ({ type: 'RecordSubscriptionUsageAlert' as const, data: recorded(usage_alert_id, active).data });

describe('subscription usage alerts index', () => {
  it('records an alert, then its archiving', () => {
    spec.given([]).when(record('ualt_1', true)).then([recorded('ualt_1', true)]);
    spec.given([recorded('ualt_1', true)]).when(record('ualt_1', false)).then([recorded('ualt_1', false)]);
  });

  it('records nothing it already holds', () => {
    spec.given([recorded('ualt_1', true)]).when(record('ualt_1', true)).thenNothingHappens();
    spec.given([recorded('ualt_1', true), recorded('ualt_1', false)]).when(record('ualt_1', false)).thenNothingHappens();
    spec.given([]).when(record('ualt_2', false)).thenNothingHappens();
  });

  it('lists the active alerts with their meters, oldest first', () => {
    const state = [recorded('ualt_1', true), recorded('ualt_2', true), recorded('ualt_1', false)].reduce(subscriptionUsageAlertsDecider.evolve, subscriptionUsageAlertsDecider.initialState());
    expect(activeUsageAlerts(state)).toEqual([{ id: 'ualt_2', meter: 'calls' }]);
    expect(activeUsageAlerts(subscriptionUsageAlertsDecider.initialState())).toEqual([]);
  });
});
