import { DeciderSpecification } from '@tally/kernel/testing/decider-spec';
import { usageAlertDecider, type CheckUsageAlert, type CreateUsageAlert } from './usage-alert.decider';
import type { UsageAlertCreated, UsageAlertEvent } from './usage-alert.events';

const spec = DeciderSpecification.for(usageAlertDecider);
const id = 'ualt_1';
const create: CreateUsageAlert = { type: 'CreateUsageAlert', data: { usage_alert_id: id, subscription_id: 'sub_1', meter: 'calls', threshold: '1000', title: null } };
const created: UsageAlertCreated = { type: 'UsageAlertCreated', data: create.data };
const JUNE = '2026-06-01T00:00:00.000Z';
const JULY = '2026-07-01T00:00:00.000Z';
const check = (quantity: string, period_start = JUNE): CheckUsageAlert => ({ type: 'CheckUsageAlert', data: { usage_alert_id: id, period_start, quantity, at: '2026-06-10T00:00:00.000Z' } });
const triggered = (quantity: string, period_start = JUNE): UsageAlertEvent => ({
  type: 'UsageAlertTriggered',
  data: { usage_alert_id: id, subscription_id: 'sub_1', period_start, quantity, triggered_at: '2026-06-10T00:00:00.000Z' },
});

describe('usage alert decider', () => {
  it('creates an alert', () => spec.given([]).when(create).then([created]));

  it('refuses a threshold of 0 or below', () => spec.given([]).when({ ...create, data: { ...create.data, threshold: '0' } }).thenFails('usage_alert.invalid_threshold'));

  it('stays quiet below the threshold', () => spec.given([created]).when(check('999.99')).thenNothingHappens());

  it('fires when the aggregate reaches the threshold', () => spec.given([created]).when(check('1000')).then([triggered('1000')]));

  it('fires once a period', () => spec.given([created, triggered('1000')]).when(check('5000')).thenNothingHappens());

  it('fires again in the next period', () => spec.given([created, triggered('1000')]).when(check('1200', JULY)).then([triggered('1200', JULY)]));

  it('fires no more once archived', () =>
    spec
      .given([created, { type: 'UsageAlertArchived', data: { usage_alert_id: id } }])
      .when(check('5000'))
      .thenNothingHappens());

  it('archives once', () => spec.given([created]).when({ type: 'ArchiveUsageAlert', data: { usage_alert_id: id } }).then([{ type: 'UsageAlertArchived', data: { usage_alert_id: id } }]));

  it('knows no alert it never created', () => spec.given([]).when(check('1')).thenFails('usage_alert.not_found'));
});
