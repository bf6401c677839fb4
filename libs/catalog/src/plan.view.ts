import { assertNever } from '@tally/kernel';
import { withPolicyDefaults } from './domain/plan-fields';
import type { ResourceView } from '@tally/runtime';
import type { TaxBehavior } from '@tally/tax/published';
import type { PlanStatus } from './domain/plan.decider';
import type { DunningPolicy, PlanEvent, PlanInterval, PriceVersion } from './domain/plan.events';
import { componentsInForce, withPriceVersionDefaults, type ComponentInForce } from './domain/price-book';

export interface PlanResource {
  [field: string]: unknown;
  id: string;
  object: 'plan';
  code: string;
  product_code: string;
  currency: string;
  interval: PlanInterval;
  interval_count: number;
  trial_days: number;
  tax_behavior: TaxBehavior;
  /** The components in force at the moment this representation was made. */
  components: ComponentInForce[];
  /** The price book: every component change, scheduled ones included, oldest first. */
  price_versions: PriceVersion[];
  dunning_policy: DunningPolicy | null;
  metadata: Record<string, string>;
  status: PlanStatus;
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

/**
 * The plan as of `at`: its components are those in force for a period starting then. Its price
 * book gets the pricing defaults here too: the read model keeps plans as they were projected, some
 * before a pricing field existed.
 */
export function planAt(plan: PlanResource, at: string): PlanResource {
  const price_versions = plan.price_versions.map(withPriceVersionDefaults);
  return { ...plan, price_versions, components: componentsInForce(price_versions, at) };
}

/** The plan as the API shows it, folded from its events; components as of each event. */
export const planView: ResourceView<PlanResource, PlanEvent> = {
  aggregateType: 'plan',
  collection: 'plans',

  apply(plan, event) {
    if (event.type === 'PlanReferenced') return plan;
    const at = event.metadata.occurred_at;
    const next = fold(plan, event, { at, livemode: event.metadata.environment === 'live' });
    return next && planAt({ ...next, updated_at: at }, at);
  },

  publicTypes: ['plan.created', 'plan.updated', 'plan.archived', 'plan.deleted'],
  publicType(event) {
    switch (event.type) {
      case 'PlanCreated':
        return 'plan.created';
      case 'PlanArchived':
        return 'plan.archived';
      case 'PlanDeleted':
        return 'plan.deleted';
      case 'PlanReferenced':
        return undefined;
      default:
        return 'plan.updated';
    }
  },
};

function fold(plan: PlanResource | undefined, event: PlanEvent, { at, livemode }: { at: string; livemode: boolean }): PlanResource | undefined {
  if (event.type === 'PlanCreated') {
    const { plan_id, code, product_code, currency, interval, interval_count, trial_days, tax_behavior, dunning_policy, metadata, price_versions } = event.data;
    return {
      id: plan_id,
      object: 'plan',
      code,
      product_code,
      currency,
      interval,
      interval_count,
      trial_days,
      tax_behavior,
      components: [],
      price_versions: price_versions.map(withPriceVersionDefaults),
      dunning_policy: withPolicyDefaults(dunning_policy),
      metadata: { ...metadata },
      status: 'active',
      livemode,
      created_at: at,
      updated_at: at,
    };
  }
  if (!plan) return undefined;
  switch (event.type) {
    case 'PlanUpdated': {
      const { plan_id: _id, ...changes } = event.data;
      return {
        ...plan,
        ...changes,
        ...(changes.dunning_policy !== undefined && { dunning_policy: withPolicyDefaults(changes.dunning_policy) }),
        metadata: { ...(changes.metadata ?? plan.metadata) },
      };
    }
    case 'PlanArchived':
      return { ...plan, status: 'archived' };
    case 'PlanReactivated':
      return { ...plan, status: 'active' };
    case 'PlanDeleted':
      return { ...plan, status: 'deleted' };
    case 'PlanReferenced':
      return plan;
    case 'PlanPriceVersionAdded':
      return { ...plan, price_versions: [...plan.price_versions, withPriceVersionDefaults(event.data.price_version)] };
    default:
      return assertNever(event);
  }
}
