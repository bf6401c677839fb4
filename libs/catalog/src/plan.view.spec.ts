import type { HistoryEvent } from '@tally/runtime';
import type { PlanEvent, StoredPriceVersion } from './domain/plan.events';
import type { StoredPricing } from './domain/pricing/stored-pricing';
import { planAt, planView, type PlanResource } from './plan.view';

const T0 = '2026-05-01T10:00:00.000Z';
const metadata = { tenant_id: 'ten_1', environment: 'sandbox' as const, actor: 'test', request_id: null, causation_id: null, correlation_id: null, schema_version: 1 };
let revision = 0;
const stored = (event: PlanEvent): PlanEvent & HistoryEvent =>
  ({ ...event, id: `e${revision}`, stream: 'plan-plan_1', revision: revision++, metadata: { ...metadata, occurred_at: T0 } }) as PlanEvent & HistoryEvent;

/** A usage pricing as plan events stored it before tiers_mode, usage_cycle and unique_property existed. */
const storedUsage: StoredPricing = { model: 'usage', meter: 'calls', aggregation: 'max', tiers: [{ up_to: null, unit_amount: '0.5', flat_amount: null }], late_events: 'rebill' };
const withDefaults = { ...storedUsage, tiers_mode: 'graduated', usage_cycle: 'period', unique_property: null };
const calls: StoredPriceVersion = { version: 1, component_code: 'calls', change: 'added', pricing: storedUsage, tax_code: null, effective_at: T0, created_at: T0 };

const created: PlanEvent = {
  type: 'PlanCreated',
  data: {
    plan_id: 'plan_1',
    code: 'metered',
    product_code: 'metered',
    currency: 'EUR',
    interval: 'month',
    interval_count: 1,
    trial_days: 0,
    tax_behavior: 'exclusive',
    dunning_policy: null,
    metadata: {},
    price_versions: [calls],
  },
};

describe('the plan view of usage pricings stored before tiers_mode, usage_cycle and unique_property existed', () => {
  it('shows them with their defaults, in the price book and the components', () => {
    const changed: PlanEvent = { type: 'PlanPriceVersionAdded', data: { plan_id: 'plan_1', price_version: { ...calls, version: 2, change: 'changed' } } };
    const plan = [stored(created), stored(changed)].reduce<PlanResource | undefined>((resource, event) => planView.apply(resource, event), undefined)!;
    expect(plan.price_versions.map((entry) => entry.pricing)).toEqual([withDefaults, withDefaults]);
    expect(plan.components).toEqual([expect.objectContaining({ code: 'calls', pricing: withDefaults, price_version: 2 })]);
  });

  it('shows a plan the read model holds from before the fields existed with their defaults', () => {
    const projectedBefore = { ...planView.apply(undefined, stored(created))!, price_versions: [calls], components: [] } as PlanResource;
    const plan = planAt(projectedBefore, T0);
    expect(plan.price_versions.map((entry) => entry.pricing)).toEqual([withDefaults]);
    expect(plan.components.map((component) => component.pricing)).toEqual([withDefaults]);
  });
});
