import type { Event, Metadata } from '@tally/kernel';
import type { Cadence, Period } from './billing-cycle';

export type SubscriptionStatus = 'pending_activation' | 'trialing' | 'active' | 'past_due' | 'paused' | 'canceled' | 'ended' | 'incomplete_expired';

/** What a pause does to the invoices issued while it lasts (the spec's pause `behavior`). */
export type PauseBehavior = 'void_invoices' | 'mark_uncollectible' | 'keep_as_draft';

/** `create_prorations` (the default), `none` (switch at the next period boundary) or `always_invoice`. */
export type ProrationBehavior = 'create_prorations' | 'none' | 'always_invoice';

/**
 * A minimum term: `periods` paid periods from activation. With `renewal: auto` a new term of the
 * same length starts at its end; with `none` the subscription ends there.
 */
export interface Commitment {
  periods: number;
  renewal: 'auto' | 'none';
}

/**
 * One prorated amount for part of a period, billed on an invoice of the subscription: a credit
 * (negative) for the unused time of what it paid, or a charge for the rest of the period at the
 * new terms. Amounts are decimal strings rounded to the currency.
 */
export interface ProrationItem {
  code: string;
  description: string;
  amount: string;
  period_start: string;
  period_end: string;
  price_version: number;
  /** The prorated component's tax code. */
  tax_code: string;
}

/**
 * The billing terms of a period: the plan and quantities its licensed components are billed at
 * in advance, plus the prorations the period's invoice carries (changes made in the period before).
 */
export interface PeriodTerms {
  plan_code: string;
  quantities: Record<string, number>;
  coupons: string[];
  prorations: ProrationItem[];
  /**
   * A first period shorter than the cycle's (a stub, up to the anchor), prorated: the whole cycle
   * period it is part of, whose remaining time its licensed components are charged. Absent: billed
   * in full (every other period, a stub created with `proration_behavior: none`, and stubs
   * activated before stubs were prorated).
   */
  whole_period?: Period;
}

export type BillingReason = 'subscription_create' | 'subscription_cycle' | 'subscription_update' | 'subscription_cancel';

/** How an invoice of the subscription is collected: charged as usual, or as the pause in force says. */
export type Collection = 'charge' | PauseBehavior;

/**
 * What the invoice an event calls for needs besides the event's own fields, decided from the
 * subscription's state with the event, so that the invoice is issued from the event alone: who
 * pays, why, the plan whose currency and tax it bills in, the coupons and which paid period they
 * discount (from 1), the closed period whose usage it bills in arrears, and how it is collected.
 */
export interface InvoiceBasis {
  customer_id: string;
  billing_reason: BillingReason;
  plan_code: string;
  coupons: string[];
  period_number: number;
  usage: { plan_code: string; period: Period } | null;
  collection: Collection;
}

/**
 * An event stored before events carried their invoice's basis (read through an upcaster): the
 * basis is what the subscription's state was when it was decided, found by folding its history up
 * to the event.
 */
export const BASIS_FROM_HISTORY = 'from_history';

/** Absent: the event calls for no invoice. */
export type Billing = { billing?: InvoiceBasis | typeof BASIS_FROM_HISTORY };

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
    /** `pending_activation`: created with `payment_behavior: default_incomplete`, awaiting its first payment. */
    status: 'trialing' | 'active' | 'pending_activation';
    trial_end: string | null;
    billing_cycle_anchor: string;
    period_start: string;
    period_end: string;
    quantities: Record<string, number>;
    coupons: string[];
    metadata: Metadata;
    default_payment_method_id: string | null;
    commitment: Commitment | null;
    /** Created with `proration_behavior: none`: a first period shorter than the cycle's is billed in full. */
    prorate_first_period?: false;
  }
>;

/**
 * The subscription is `active` in the period that starts now: at creation without a trial, or at
 * the trial's end. The commitment, if any, starts with it. `first_payment_pending` (at creation,
 * since this field exists): `subscription.activated` waits for its first invoice to be paid
 * (SubscriptionFirstInvoicePaid); an event without it announced the activation itself.
 */
export type SubscriptionActivated = Event<
  'SubscriptionActivated',
  { subscription_id: string; period_start: string; period_end: string; terms: PeriodTerms; commitment_end: string | null; first_payment_pending?: true } & Billing
>;

/** The first invoice of a subscription created active was paid (a zero invoice too): its activation is announced now. */
export type SubscriptionFirstInvoicePaid = Event<'SubscriptionFirstInvoicePaid', { subscription_id: string; invoice_id: string }>;

/** A period closed and the next began, billed at `terms`; the closed period's usage is billed with it. */
export type SubscriptionRenewed = Event<'SubscriptionRenewed', { subscription_id: string; period_start: string; period_end: string; terms: PeriodTerms; commitment_end: string | null } & Billing>;

/** Three days before the trial ends (`subscription.trial_will_end`). */
export type SubscriptionTrialWillEnd = Event<'SubscriptionTrialWillEnd', { subscription_id: string; trial_end: string }>;

/** Metadata or the default payment method changed; `previous_attributes` holds what they were. */
export type SubscriptionUpdated = Event<
  'SubscriptionUpdated',
  { subscription_id: string; metadata?: Metadata; default_payment_method_id?: string | null; previous_attributes: { metadata?: Metadata; default_payment_method_id?: string | null } }
>;

/** The plan changed now; `prorations` go on the next invoice, or on one issued at once when `invoice_now`. */
export type SubscriptionPlanChanged = Event<
  'SubscriptionPlanChanged',
  { subscription_id: string; plan_code: string; previous_plan_code: string; changed_at: string; prorations: ProrationItem[]; invoice_now: boolean } & Billing
>;

/** The plan changes at the next period boundary (`proration_behavior: none`). */
export type SubscriptionPlanChangeScheduled = Event<'SubscriptionPlanChangeScheduled', { subscription_id: string; plan_code: string; effective_at: string }>;

/** A quantity changed now, prorated on the next invoice. */
export type SubscriptionQuantityChanged = Event<
  'SubscriptionQuantityChanged',
  { subscription_id: string; meter: string; quantity: number; previous_quantity: number | null; changed_at: string; prorations: ProrationItem[] }
>;

/** A quantity changes at the next period boundary (`subscription.quantity_scheduled`). */
export type SubscriptionQuantityScheduled = Event<'SubscriptionQuantityScheduled', { subscription_id: string; meter: string; quantity: number; effective_at: string }>;

export type SubscriptionPaused = Event<'SubscriptionPaused', { subscription_id: string; paused_at: string; until: string | null; behavior: PauseBehavior }>;

export type SubscriptionResumed = Event<'SubscriptionResumed', { subscription_id: string; resumed_at: string; automatic: boolean }>;

/** Cancellation at the end of the current period (Stripe's `cancel_at_period_end`). */
export type SubscriptionCancellationScheduled = Event<'SubscriptionCancellationScheduled', { subscription_id: string; cancel_at: string; reason: string | null }>;

/**
 * Canceled. `prorations`: what the subscription's final invoice bills, the prorations still
 * pending from changes in the period, then the credit for the unused time of a paid period (a
 * cancellation `now`). Events stored before pending prorations were carried hold the credit
 * alone. `final_invoice: false` (a cancellation because its customer was deleted, or by dunning)
 * issues no final invoice, and carries nothing.
 */
export type SubscriptionCanceled = Event<
  'SubscriptionCanceled',
  { subscription_id: string; canceled_at: string; reason: string | null; prorations: ProrationItem[]; final_invoice?: false } & Billing
>;

/** 30 days before the commitment ends (`subscription.commitment_ending`). */
export type SubscriptionCommitmentEnding = Event<'SubscriptionCommitmentEnding', { subscription_id: string; commitment_end: string; renewal: Commitment['renewal'] }>;

/**
 * The commitment ended without renewal: the subscription is over (`ended`). `prorations`: those
 * still pending, billed on its final invoice (absent on events stored before they were carried).
 */
export type SubscriptionEnded = Event<'SubscriptionEnded', { subscription_id: string; ended_at: string; prorations?: ProrationItem[] } & Billing>;

/** An invoice's payment failed while the subscription was active: dunning begins. */
export type SubscriptionPastDue = Event<'SubscriptionPastDue', { subscription_id: string; invoice_id: string }>;

/** The invoice that made it past due was paid: the subscription is `active` again. */
export type SubscriptionRecovered = Event<'SubscriptionRecovered', { subscription_id: string; invoice_id: string }>;

/**
 * Created with `payment_behavior: default_incomplete`: the first period's invoice is issued now,
 * and the subscription is activated when it is paid, or expires at `expires_at` (Stripe's 23 hours).
 */
export type SubscriptionAwaitingPayment = Event<
  'SubscriptionAwaitingPayment',
  { subscription_id: string; period_start: string; period_end: string; terms: PeriodTerms; expires_at: string } & Billing
>;

/**
 * A credit note (a refund's, or one issued by hand) on one of the subscription's invoices adjusted
 * that invoice's revenue recognition schedule: what it credited, and what it took off the
 * schedule, of which the part already recognised (reversed on its day) and the part still deferred.
 */
export type SubscriptionRefundProcessed = Event<'SubscriptionRefundProcessed', SubscriptionRefund & { subscription_id: string }>;

export interface SubscriptionRefund {
  invoice_id: string;
  credit_note_id: string;
  /** The refund that issued the credit note; null for a credit note without one. */
  refund_id: string | null;
  /** What the credit note credited (with tax), in `currency`. */
  amount: string;
  currency: string;
  revenue_reduced: string;
  recognized_reversed: string;
  deferred_reduced: string;
  processed_at: string;
}

/** The first invoice was not paid in time: the subscription never started (terminal). */
export type SubscriptionIncompleteExpired = Event<'SubscriptionIncompleteExpired', { subscription_id: string; expired_at: string; period_start: string }>;

export type SubscriptionEvent =
  | SubscriptionAwaitingPayment
  | SubscriptionIncompleteExpired
  | SubscriptionCreated
  | SubscriptionActivated
  | SubscriptionFirstInvoicePaid
  | SubscriptionRenewed
  | SubscriptionTrialWillEnd
  | SubscriptionUpdated
  | SubscriptionPlanChanged
  | SubscriptionPlanChangeScheduled
  | SubscriptionQuantityChanged
  | SubscriptionQuantityScheduled
  | SubscriptionPaused
  | SubscriptionResumed
  | SubscriptionCancellationScheduled
  | SubscriptionCanceled
  | SubscriptionCommitmentEnding
  | SubscriptionEnded
  | SubscriptionPastDue
  | SubscriptionRecovered
  | SubscriptionRefundProcessed;
