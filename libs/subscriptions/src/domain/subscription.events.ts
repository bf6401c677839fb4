import type { Event, Metadata } from '@tally/kernel';
import type { Cadence } from './billing-cycle';

export type SubscriptionStatus = 'pending_activation' | 'trialing' | 'active' | 'past_due' | 'paused' | 'canceled' | 'ended' | 'incomplete_expired';

/** What a pause does to the invoices issued while it lasts (the spec's pause `behavior`). */
export type PauseBehavior = 'void_invoices' | 'mark_uncollectible' | 'keep_as_draft';

/**
 * A new subscription: `trialing` until `trial_end`, else `active` in its first period. Periods
 * run from `billing_cycle_anchor` by `cadence`; a first period that starts before the anchor ends
 * at it (a stub, prorated).
 */
export type SubscriptionCreated = Event<
  'SubscriptionCreated',
  {
    subscription_id: string;
    customer_id: string;
    plan_code: string;
    currency: string;
    cadence: Cadence;
    status: 'trialing' | 'active';
    trial_end: string | null;
    billing_cycle_anchor: string;
    period_start: string;
    period_end: string;
    quantities: Record<string, number>;
    coupons: string[];
    metadata: Metadata;
    default_payment_method_id: string | null;
  }
>;

/** The trial is over: the subscription is `active` in the period that starts now. */
export type SubscriptionActivated = Event<'SubscriptionActivated', { subscription_id: string; period_start: string; period_end: string }>;

/** A period closed and the next began. */
export type SubscriptionRenewed = Event<'SubscriptionRenewed', { subscription_id: string; period_start: string; period_end: string }>;

export type SubscriptionPaused = Event<'SubscriptionPaused', { subscription_id: string; paused_at: string; until: string | null; behavior: PauseBehavior }>;

export type SubscriptionResumed = Event<'SubscriptionResumed', { subscription_id: string; resumed_at: string; automatic: boolean }>;

/** Cancellation at the end of the current period (Stripe's `cancel_at_period_end`). */
export type SubscriptionCancellationScheduled = Event<'SubscriptionCancellationScheduled', { subscription_id: string; cancel_at: string; reason: string | null }>;

/** `credit_from`: where the credit for unused time starts (a cancellation `now` of a paid period), else null. */
export type SubscriptionCanceled = Event<'SubscriptionCanceled', { subscription_id: string; canceled_at: string; reason: string | null; credit_from: string | null }>;

/** An invoice's payment failed while the subscription was active: dunning begins. */
export type SubscriptionPastDue = Event<'SubscriptionPastDue', { subscription_id: string; invoice_id: string }>;

/** The invoice that made it past due was paid: the subscription is `active` again. */
export type SubscriptionRecovered = Event<'SubscriptionRecovered', { subscription_id: string; invoice_id: string }>;

export type SubscriptionEvent =
  | SubscriptionCreated
  | SubscriptionActivated
  | SubscriptionRenewed
  | SubscriptionPaused
  | SubscriptionResumed
  | SubscriptionCancellationScheduled
  | SubscriptionCanceled
  | SubscriptionPastDue
  | SubscriptionRecovered;
