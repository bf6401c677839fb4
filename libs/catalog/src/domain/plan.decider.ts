import { assertNever, checkMetadata, DomainError, mergeMetadata, type Command, type Decider, type Metadata } from '@tally/kernel';
import type { TaxBehavior, TaxCode } from '@tally/tax/published';
import { checkCurrency, checkDunningPolicy, checkInterval, withPolicyDefaults } from './plan-fields';
import type { DunningPolicy, PlanCreated, PlanEvent, PlanInterval, PriceVersion } from './plan.events';
import { lastEntryOf, withPriceVersionDefaults } from './price-book';
import { parsePricing } from './pricing/parse-pricing';

export type PlanStatus = 'active' | 'archived' | 'deleted';

export interface Plan {
  status: PlanStatus;
  id: string;
  code: string;
  productCode: string;
  currency: string;
  interval: PlanInterval;
  intervalCount: number;
  trialDays: number;
  taxBehavior: TaxBehavior;
  dunningPolicy: DunningPolicy | null;
  metadata: Metadata;
  priceVersions: readonly PriceVersion[];
  /** Some subscription was created on the plan: it can no longer be deleted. */
  referenced: boolean;
}

export type PlanState = { status: 'none' } | Plan;

/** A component as a request describes it; `pricing` is validated by the decider. */
export interface ComponentInput {
  code: string;
  pricing: unknown;
  tax_code?: TaxCode | null;
}

/** Fields fixed at creation; an update may repeat their current values, never change them. */
export interface ImmutableFields {
  code?: string;
  product_code?: string;
  currency?: string;
  interval?: PlanInterval;
  interval_count?: number;
}

/** Every command carries `at`: the moment it is handled (ISO 8601 UTC). */
export type CreatePlan = Command<
  'CreatePlan',
  Omit<PlanCreated['data'], 'price_versions' | 'interval_count' | 'trial_days' | 'tax_behavior' | 'dunning_policy' | 'metadata'> & {
    interval_count?: number;
    trial_days?: number;
    tax_behavior?: TaxBehavior;
    dunning_policy?: DunningPolicy | null;
    metadata?: Metadata;
    components: readonly ComponentInput[];
    at: string;
  }
>;
export type UpdatePlan = Command<
  'UpdatePlan',
  ImmutableFields & {
    plan_id: string;
    trial_days?: number;
    tax_behavior?: TaxBehavior;
    dunning_policy?: DunningPolicy | null;
    /** A patch: keys replace old values, an empty string removes a key. */
    metadata?: Metadata;
    status?: PlanStatus;
    /** Present when the request tried to set components, which change through their sub-resource. */
    components?: unknown;
    at: string;
  }
>;
export type AddComponent = Command<'AddComponent', ComponentInput & { plan_id: string; effective_at?: string; at: string }>;
export type ChangeComponent = Command<
  'ChangeComponent',
  { plan_id: string; code: string; pricing: unknown; tax_code?: TaxCode | null; effective_at?: string; at: string }
>;
export type RemoveComponent = Command<'RemoveComponent', { plan_id: string; code: string; at: string }>;
export type RecordPlanReference = Command<'RecordPlanReference', { plan_id: string; subscription_id: string; at: string }>;

export type PlanCommand = CreatePlan | UpdatePlan | AddComponent | ChangeComponent | RemoveComponent | RecordPlanReference;

const notFound = (id: string) => DomainError.notFound('plan.not_found', `No plan ${id}`);

export const planDecider: Decider<PlanState, PlanCommand, PlanEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (command.type === 'CreatePlan') return create(command.data, state);
    if (state.status === 'none') throw notFound(command.data.plan_id);
    if (command.type === 'RecordPlanReference') {
      return state.referenced ? [] : [{ type: 'PlanReferenced', data: { plan_id: state.id, subscription_id: command.data.subscription_id } }];
    }
    if (state.status === 'deleted') throw DomainError.conflict('plan.deleted', `Plan ${state.code} is deleted and cannot change`);
    switch (command.type) {
      case 'UpdatePlan':
        return update(command.data, state);
      case 'AddComponent':
        return [addPriceVersion(state, command.data, 'added')];
      case 'ChangeComponent':
        return [addPriceVersion(state, command.data, 'changed')];
      case 'RemoveComponent':
        return [addPriceVersion(state, { ...command.data, pricing: null }, 'removed')];
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    if (event.type === 'PlanCreated') {
      const { plan_id, code, product_code, currency, interval, interval_count, trial_days, tax_behavior, dunning_policy, metadata, price_versions } = event.data;
      return {
        status: 'active',
        id: plan_id,
        code,
        productCode: product_code,
        currency,
        interval,
        intervalCount: interval_count,
        trialDays: trial_days,
        taxBehavior: tax_behavior,
        dunningPolicy: dunning_policy,
        metadata,
        priceVersions: price_versions.map(withPriceVersionDefaults),
        referenced: false,
      };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'PlanUpdated': {
        const { trial_days, tax_behavior, dunning_policy, metadata } = event.data;
        return {
          ...state,
          ...(trial_days !== undefined && { trialDays: trial_days }),
          ...(tax_behavior !== undefined && { taxBehavior: tax_behavior }),
          ...(dunning_policy !== undefined && { dunningPolicy: dunning_policy }),
          ...(metadata !== undefined && { metadata }),
        };
      }
      case 'PlanArchived':
        return { ...state, status: 'archived' };
      case 'PlanReactivated':
        return { ...state, status: 'active' };
      case 'PlanDeleted':
        return { ...state, status: 'deleted' };
      case 'PlanReferenced':
        return { ...state, referenced: true };
      case 'PlanPriceVersionAdded':
        return { ...state, priceVersions: [...state.priceVersions, withPriceVersionDefaults(event.data.price_version)] };
      default:
        return assertNever(event);
    }
  },
};

function create(data: CreatePlan['data'], state: PlanState): PlanEvent[] {
  if (state.status !== 'none') throw DomainError.conflict('plan.code_taken', `A plan with code ${data.code} already exists`);
  const { components, at, ...fields } = data;
  checkCurrency(fields.currency);
  const interval_count = fields.interval_count ?? 1;
  checkInterval(fields.interval, interval_count);
  checkDunningPolicy(fields.dunning_policy ?? null);
  checkMetadata(fields.metadata ?? {});
  const duplicate = components.find((c, i) => components.findIndex((other) => other.code === c.code) !== i);
  if (duplicate) {
    throw DomainError.invalid('plan.duplicate_component', `Component code ${duplicate.code} appears twice; component codes are unique within a plan`);
  }
  const price_versions = components.map(
    (component, i): PriceVersion => ({
      version: i + 1,
      component_code: component.code,
      change: 'added',
      pricing: parsePricing(component.pricing, { field: `components[${i}].pricing`, defaultMeter: component.code, currency: fields.currency }),
      tax_code: component.tax_code ?? null,
      effective_at: at,
      created_at: at,
    }),
  );
  return [
    {
      type: 'PlanCreated',
      data: {
        ...fields,
        interval_count,
        trial_days: fields.trial_days ?? 0,
        tax_behavior: fields.tax_behavior ?? 'exclusive',
        dunning_policy: withPolicyDefaults(fields.dunning_policy ?? null),
        metadata: fields.metadata ?? {},
        price_versions,
      },
    },
  ];
}

function update(data: UpdatePlan['data'], plan: Plan): PlanEvent[] {
  checkImmutables(data, plan);
  if (data.components !== undefined) {
    throw DomainError.invalid('plan.components_read_only', 'Components change through /v1/plans/{plan}/components', [
      { field: 'components', code: 'plan.components_read_only', message: 'use the components sub-resource' },
    ]);
  }
  if (data.dunning_policy !== undefined) checkDunningPolicy(data.dunning_policy);
  const metadata = data.metadata === undefined ? plan.metadata : mergeMetadata(plan.metadata, data.metadata);
  checkMetadata(metadata);
  const changes = {
    ...(data.trial_days !== undefined && data.trial_days !== plan.trialDays && { trial_days: data.trial_days }),
    ...(data.tax_behavior !== undefined && data.tax_behavior !== plan.taxBehavior && { tax_behavior: data.tax_behavior }),
    ...(data.dunning_policy !== undefined &&
      !sameJson(withPolicyDefaults(data.dunning_policy), withPolicyDefaults(plan.dunningPolicy)) && { dunning_policy: withPolicyDefaults(data.dunning_policy) }),
    ...(!sameJson(metadata, plan.metadata) && { metadata }),
  };
  const events: PlanEvent[] = Object.keys(changes).length > 0 ? [{ type: 'PlanUpdated', data: { plan_id: plan.id, ...changes } }] : [];
  return [...events, ...statusChange(plan, data.status)];
}

function checkImmutables(data: ImmutableFields, plan: Plan): void {
  const current: Required<ImmutableFields> = {
    code: plan.code,
    product_code: plan.productCode,
    currency: plan.currency,
    interval: plan.interval,
    interval_count: plan.intervalCount,
  };
  const changed = (Object.keys(current) as (keyof ImmutableFields)[]).filter((field) => data[field] !== undefined && data[field] !== current[field]);
  if (changed.length > 0) {
    throw DomainError.invalid(
      'plan.immutable_field',
      `${changed.join(', ')} cannot change after a plan is created; create a new plan instead`,
      changed.map((field) => ({ field, code: 'plan.immutable_field', message: `fixed at creation (${current[field]})` })),
    );
  }
}

function statusChange(plan: Plan, wanted: PlanStatus | undefined): PlanEvent[] {
  if (wanted === undefined || wanted === plan.status) return [];
  const data = { plan_id: plan.id };
  switch (wanted) {
    case 'archived':
      return [{ type: 'PlanArchived', data }];
    case 'active':
      return [{ type: 'PlanReactivated', data }];
    case 'deleted':
      if (plan.referenced) {
        throw DomainError.conflict('plan.in_use', `Plan ${plan.code} has subscriptions; archive it instead of deleting it`);
      }
      return [{ type: 'PlanDeleted', data }];
    default:
      return assertNever(wanted);
  }
}

function addPriceVersion(
  plan: Plan,
  data: { code: string; pricing: unknown; tax_code?: TaxCode | null; effective_at?: string; at: string },
  change: PriceVersion['change'],
): PlanEvent {
  const last = lastEntryOf(plan.priceVersions, data.code);
  const exists = last !== undefined && last.change !== 'removed';
  if (change === 'added' && exists) throw DomainError.conflict('plan.component_exists', `Plan ${plan.code} already has a component ${data.code}`);
  if (change !== 'added' && !exists) throw DomainError.notFound('plan.component_not_found', `Plan ${plan.code} has no component ${data.code}`);

  const effectiveAt = data.effective_at ?? data.at;
  if (effectiveAt < data.at) {
    throw DomainError.invalid('plan.effective_at_in_past', 'effective_at must not be in the past: billed periods keep the prices they were billed with', [
      { field: 'effective_at', code: 'plan.effective_at_in_past', message: 'now or later' },
    ]);
  }
  if (last && effectiveAt < last.effective_at) {
    throw DomainError.conflict(
      'plan.component_change_scheduled',
      `Component ${data.code} has a change taking effect at ${last.effective_at}; a new change must take effect at or after it`,
    );
  }
  const pricing = change === 'removed' ? null : parsePricing(data.pricing, { field: 'pricing', defaultMeter: data.code, currency: plan.currency });
  const tax_code = change === 'removed' ? null : data.tax_code !== undefined ? data.tax_code : (last?.tax_code ?? null);
  return {
    type: 'PlanPriceVersionAdded',
    data: {
      plan_id: plan.id,
      price_version: {
        version: plan.priceVersions.length + 1,
        component_code: data.code,
        change,
        pricing,
        tax_code,
        effective_at: effectiveAt,
        created_at: data.at,
      },
    },
  };
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
