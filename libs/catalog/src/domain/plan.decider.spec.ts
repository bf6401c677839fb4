import { DeciderSpecification } from '@tally/kernel/testing/decider-spec';
import { planDecider, type CreatePlan } from './plan.decider';
import type { PlanCreated, PlanEvent, PriceVersion, StoredPriceVersion } from './plan.events';
import type { StoredPricing } from './pricing/stored-pricing';

const spec = DeciderSpecification.for(planDecider);

const T0 = '2026-05-01T10:00:00.000Z';
const T1 = '2026-05-02T10:00:00.000Z';
const LATER = '2026-06-01T00:00:00.000Z';

const base: PriceVersion = {
  version: 1,
  component_code: 'base',
  change: 'added',
  pricing: { model: 'flat', amount: '49.00' },
  tax_code: null,
  effective_at: T0,
  created_at: T0,
};

const create: CreatePlan = {
  type: 'CreatePlan',
  data: {
    plan_id: 'plan_1',
    code: 'pro-monthly',
    product_code: 'pro',
    currency: 'EUR',
    interval: 'month',
    interval_count: 1,
    components: [{ code: 'base', pricing: { model: 'flat', amount: '49.00' } }],
    at: T0,
  },
};

const created: PlanCreated = {
  type: 'PlanCreated',
  data: {
    plan_id: 'plan_1',
    code: 'pro-monthly',
    product_code: 'pro',
    currency: 'EUR',
    interval: 'month',
    interval_count: 1,
    trial_days: 0,
    tax_behavior: 'exclusive',
    dunning_policy: null,
    metadata: {},
    price_versions: [base],
  },
};

const versionAdded = (price_version: StoredPriceVersion): PlanEvent => ({ type: 'PlanPriceVersionAdded', data: { plan_id: 'plan_1', price_version } });

describe('plan decider', () => {
  describe('create', () => {
    it('creates the plan with defaults and its components as price version 1…n', () => {
      spec.given([]).when(create).then([created]);
    });

    it('bills every interval when interval_count is left out, as Stripe does', () => {
      const { interval_count: _omitted, ...fields } = create.data;
      spec.given([]).when({ type: 'CreatePlan', data: fields }).then([created]);
    });

    it('refuses a code that is taken', () => {
      spec.given([created]).when(create).thenFails('plan.code_taken');
    });

    it.each([
      ['a lowercase currency', { currency: 'eur' }, 'money.unknown_currency'],
      ['an unknown currency', { currency: 'XYZ' }, 'money.unknown_currency'],
      ['more than a year per period', { interval: 'month' as const, interval_count: 13 }, 'plan.invalid_interval'],
      ['two components with one code', { components: [create.data.components[0], create.data.components[0]] }, 'plan.duplicate_component'],
      ['an invalid pricing', { components: [{ code: 'base', pricing: { model: 'flat', amount: '-1' } }] }, 'pricing.invalid'],
      ['retry days out of order', { dunning_policy: { retry_days: [3, 1], final_action: 'cancel_subscription' as const } }, 'plan.invalid_dunning_policy'],
      ['too many metadata keys', { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, 'request.invalid_metadata'],
    ])('refuses %s', (_name, change, code) => {
      spec.given([]).when({ type: 'CreatePlan', data: { ...create.data, ...change } }).thenFails(code);
    });
  });

  describe('update', () => {
    it('records the mutable fields that changed, metadata merged', () => {
      spec
        .given([created])
        .when({ type: 'UpdatePlan', data: { plan_id: 'plan_1', trial_days: 14, tax_behavior: 'exclusive', metadata: { tier: 'gold' }, at: T1 } })
        .then([{ type: 'PlanUpdated', data: { plan_id: 'plan_1', trial_days: 14, metadata: { tier: 'gold' } } }]);
    });

    it('does nothing when nothing changes, immutable fields repeated as they are included', () => {
      spec.given([created]).when({ type: 'UpdatePlan', data: { plan_id: 'plan_1', currency: 'EUR', code: 'pro-monthly', trial_days: 0, at: T1 } }).thenNothingHappens();
    });

    it.each([
      ['code', { code: 'other' }],
      ['product_code', { product_code: 'other' }],
      ['currency', { currency: 'USD' }],
      ['interval', { interval: 'year' as const }],
      ['interval_count', { interval_count: 3 }],
    ])('refuses to change %s', (_field, change) => {
      spec.given([created]).when({ type: 'UpdatePlan', data: { plan_id: 'plan_1', ...change, at: T1 } }).thenFails('plan.immutable_field');
    });

    it('refuses components, which change through their sub-resource', () => {
      spec.given([created]).when({ type: 'UpdatePlan', data: { plan_id: 'plan_1', components: [], at: T1 } }).thenFails('plan.components_read_only');
    });

    it('answers not found for a plan that does not exist', () => {
      spec.given([]).when({ type: 'UpdatePlan', data: { plan_id: 'plan_1', trial_days: 3, at: T1 } }).thenFails('plan.not_found');
    });
  });

  describe('status', () => {
    const archived: PlanEvent = { type: 'PlanArchived', data: { plan_id: 'plan_1' } };
    const deleted: PlanEvent = { type: 'PlanDeleted', data: { plan_id: 'plan_1' } };
    const referenced: PlanEvent = { type: 'PlanReferenced', data: { plan_id: 'plan_1', subscription_id: 'sub_1' } };
    const setStatus = (status: 'active' | 'archived' | 'deleted') => ({ type: 'UpdatePlan' as const, data: { plan_id: 'plan_1', status, at: T1 } });

    it('archives an active plan and reactivates an archived one', () => {
      spec.given([created]).when(setStatus('archived')).then([archived]);
      spec.given([created, archived]).when(setStatus('active')).then([{ type: 'PlanReactivated', data: { plan_id: 'plan_1' } }]);
    });

    it('deletes a plan no subscription ever referenced', () => {
      spec.given([created, archived]).when(setStatus('deleted')).then([deleted]);
    });

    it('refuses to delete a plan a subscription referenced, even once archived', () => {
      spec.given([created, referenced, archived]).when(setStatus('deleted')).thenFails('plan.in_use');
    });

    it('records the first reference only', () => {
      spec.given([created]).when({ type: 'RecordPlanReference', data: { plan_id: 'plan_1', subscription_id: 'sub_1', at: T1 } }).then([referenced]);
      spec.given([created, referenced]).when({ type: 'RecordPlanReference', data: { plan_id: 'plan_1', subscription_id: 'sub_2', at: T1 } }).thenNothingHappens();
    });

    it('changes nothing on a deleted plan', () => {
      spec.given([created, deleted]).when(setStatus('active')).thenFails('plan.deleted');
      spec.given([created, deleted]).when({ type: 'RemoveComponent', data: { plan_id: 'plan_1', code: 'base', at: T1 } }).thenFails('plan.deleted');
    });
  });

  describe('components and the price book', () => {
    const seats = { code: 'seats', pricing: { model: 'per_unit', unit_amount: '5.00' } };

    it('adds a component as the next price version, effective now', () => {
      spec
        .given([created])
        .when({ type: 'AddComponent', data: { plan_id: 'plan_1', ...seats, at: T1 } })
        .then([
          versionAdded({
            version: 2,
            component_code: 'seats',
            change: 'added',
            pricing: { model: 'per_unit', unit_amount: '5.00', included_units: 0, meter: 'seats' },
            tax_code: null,
            effective_at: T1,
            created_at: T1,
          }),
        ]);
    });

    it('refuses a component code the plan has', () => {
      spec.given([created]).when({ type: 'AddComponent', data: { plan_id: 'plan_1', code: 'base', pricing: { model: 'flat', amount: '1' }, at: T1 } }).thenFails('plan.component_exists');
    });

    it('queues a repricing for periods that start at effective_at, keeping the tax code', () => {
      const reduced = { ...base, tax_code: 'reduced' as const };
      spec
        .given([{ ...created, data: { ...created.data, price_versions: [reduced] } }])
        .when({ type: 'ChangeComponent', data: { plan_id: 'plan_1', code: 'base', pricing: { model: 'flat', amount: '59.00' }, effective_at: LATER, at: T1 } })
        .then([versionAdded({ version: 2, component_code: 'base', change: 'changed', pricing: { model: 'flat', amount: '59.00' }, tax_code: 'reduced', effective_at: LATER, created_at: T1 })]);
    });

    it('refuses an effective_at in the past', () => {
      spec
        .given([created])
        .when({ type: 'ChangeComponent', data: { plan_id: 'plan_1', code: 'base', pricing: { model: 'flat', amount: '59.00' }, effective_at: T0, at: T1 } })
        .thenFails('plan.effective_at_in_past');
    });

    it('refuses a change that would take effect before a change already scheduled for the component', () => {
      const scheduled = versionAdded({ ...base, version: 2, change: 'changed', pricing: { model: 'flat', amount: '59.00' }, effective_at: LATER, created_at: T1 });
      spec
        .given([created, scheduled])
        .when({ type: 'ChangeComponent', data: { plan_id: 'plan_1', code: 'base', pricing: { model: 'flat', amount: '55.00' }, at: T1 } })
        .thenFails('plan.component_change_scheduled');
      spec.given([created, scheduled]).when({ type: 'RemoveComponent', data: { plan_id: 'plan_1', code: 'base', at: T1 } }).thenFails('plan.component_change_scheduled');
    });

    it('removes a component from now on, and a removed code can be added again', () => {
      const removed = versionAdded({ version: 2, component_code: 'base', change: 'removed', pricing: null, tax_code: null, effective_at: T1, created_at: T1 });
      spec.given([created]).when({ type: 'RemoveComponent', data: { plan_id: 'plan_1', code: 'base', at: T1 } }).then([removed]);
      spec.given([created, removed]).when({ type: 'ChangeComponent', data: { plan_id: 'plan_1', code: 'base', pricing: { model: 'flat', amount: '1' }, at: T1 } }).thenFails('plan.component_not_found');
      spec
        .given([created, removed])
        .when({ type: 'AddComponent', data: { plan_id: 'plan_1', code: 'base', pricing: { model: 'flat', amount: '1' }, at: T1 } })
        .then([versionAdded({ version: 3, component_code: 'base', change: 'added', pricing: { model: 'flat', amount: '1' }, tax_code: null, effective_at: T1, created_at: T1 })]);
    });

    it('reads usage pricings stored before tiers_mode, usage_cycle and unique_property existed with their defaults', () => {
      const storedUsage: StoredPricing = { model: 'usage', meter: 'calls', aggregation: 'sum', tiers: [{ up_to: null, unit_amount: '0.5', flat_amount: null }], late_events: 'next_period' };
      const calls: StoredPriceVersion = { ...base, version: 2, component_code: 'calls', pricing: storedUsage };
      const withDefaults = { ...storedUsage, tiers_mode: 'graduated', usage_cycle: 'period', unique_property: null };
      const state = [{ ...created, data: { ...created.data, price_versions: [base, calls] } }, versionAdded({ ...calls, version: 3, change: 'changed' })].reduce(
        planDecider.evolve,
        planDecider.initialState(),
      );
      expect(state.status !== 'none' && state.priceVersions.map((entry) => entry.pricing)).toEqual([base.pricing, withDefaults, withDefaults]);
    });

    it('refuses an invalid pricing and names the field', () => {
      expect(() =>
        planDecider.decide({ type: 'ChangeComponent', data: { plan_id: 'plan_1', code: 'base', pricing: { model: 'volume', tiers: [] }, at: T1 } }, planDecider.evolve(planDecider.initialState(), created)),
      ).toThrow(expect.objectContaining({ code: 'pricing.invalid', fields: expect.arrayContaining([expect.objectContaining({ field: expect.stringMatching(/^pricing\.tiers/) })]) }));
    });
  });
});
