import { defineView, type StampedResource } from '@tally/runtime';
import { withPolicyDefaults } from './domain/plan-fields';
import type { TaxBehavior } from '@tally/tax/published';
import type { PlanStatus } from './domain/plan.decider';
import type { DunningPolicy, PlanEvent, PlanInterval, PriceVersion } from './domain/plan.events';
import { componentsInForce, withPriceVersionDefaults, type ComponentInForce } from './domain/price-book';

export interface PlanResource extends StampedResource {
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
export const planView = defineView<PlanResource, PlanEvent, 'PlanCreated'>({
  object: 'plan',
  created: {
    type: 'PlanCreated',
    fields: ({ code, product_code, currency, interval, interval_count, trial_days, tax_behavior, dunning_policy, metadata, price_versions }) => ({
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
      metadata,
      status: 'active',
    }),
  },
  changes: {
    PlanUpdated: (plan, { plan_id: _id, ...changes }) => ({
      ...changes,
      ...(changes.dunning_policy !== undefined && { dunning_policy: withPolicyDefaults(changes.dunning_policy) }),
      metadata: changes.metadata ?? plan.metadata,
    }),
    PlanArchived: () => ({ status: 'archived' }),
    PlanReactivated: () => ({ status: 'active' }),
    PlanDeleted: () => ({ status: 'deleted' }),
    PlanReferenced: 'unchanged',
    PlanPriceVersionAdded: (plan, { price_version }) => ({ price_versions: [...plan.price_versions, withPriceVersionDefaults(price_version)] }),
  },
  publicTypes: {
    PlanCreated: 'plan.created',
    PlanUpdated: 'plan.updated',
    PlanArchived: 'plan.archived',
    PlanReactivated: 'plan.updated',
    PlanDeleted: 'plan.deleted',
    PlanReferenced: undefined,
    PlanPriceVersionAdded: 'plan.updated',
  },
  derive: planAt,
});
