import type { Event, Metadata } from '@tally/kernel';
import type { TaxBehavior, TaxCode } from '@tally/tax/published';
import type { Pricing } from './pricing/pricing';
import type { StoredPricing } from './pricing/stored-pricing';

export type PlanInterval = 'day' | 'week' | 'month' | 'year';

/** What happens once every retry of a failed invoice payment failed. */
export type DunningFinalAction = 'cancel_subscription' | 'mark_uncollectible' | 'leave_past_due';

export interface DunningPolicy {
  /** Days after the first failure on which the payment is retried, ascending. */
  retry_days: number[];
  final_action: DunningFinalAction;
  /** A failure's `retriable_after` from the provider replaces the fixed day (default). Absent in events before it existed: true. */
  use_provider_hints?: boolean;
}

/**
 * One entry of a plan's price book: a component added, repriced or removed, taking effect for
 * billing periods that start at or after `effective_at`. Entries are never changed; `version`
 * counts them per plan, so an invoice line can name the version it was priced with.
 */
export interface PriceVersion {
  version: number;
  component_code: string;
  change: 'added' | 'changed' | 'removed';
  /** null when removed. */
  pricing: Pricing | null;
  /** The component's override; null: `standard`. */
  tax_code: TaxCode | null;
  effective_at: string;
  created_at: string;
}

/** A price-book entry as a plan event holds it: its pricing may lack fields added since (see StoredPricing). */
export type StoredPriceVersion = Omit<PriceVersion, 'pricing'> & { pricing: StoredPricing | null };

export type PlanCreated = Event<
  'PlanCreated',
  {
    plan_id: string;
    code: string;
    product_code: string;
    currency: string;
    interval: PlanInterval;
    interval_count: number;
    trial_days: number;
    tax_behavior: TaxBehavior;
    dunning_policy: DunningPolicy | null;
    metadata: Metadata;
    /** The components the plan was created with: price versions 1…n, effective at creation. */
    price_versions: StoredPriceVersion[];
  }
>;

/** Carries the new value of each changed mutable field only. */
export type PlanUpdated = Event<
  'PlanUpdated',
  { plan_id: string; trial_days?: number; tax_behavior?: TaxBehavior; dunning_policy?: DunningPolicy | null; metadata?: Metadata }
>;

export type PlanArchived = Event<'PlanArchived', { plan_id: string }>;
export type PlanReactivated = Event<'PlanReactivated', { plan_id: string }>;
export type PlanDeleted = Event<'PlanDeleted', { plan_id: string }>;

/** A subscription was created on the plan: from now on it can be archived but never deleted. */
export type PlanReferenced = Event<'PlanReferenced', { plan_id: string; subscription_id: string }>;

export type PlanPriceVersionAdded = Event<'PlanPriceVersionAdded', { plan_id: string; price_version: StoredPriceVersion }>;

export type PlanEvent = PlanCreated | PlanUpdated | PlanArchived | PlanReactivated | PlanDeleted | PlanReferenced | PlanPriceVersionAdded;
