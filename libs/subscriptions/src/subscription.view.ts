import { keyedObject } from '@tally/kernel';
import { DAY_MS } from './domain/subscription.decider';
import { defineView, type StampedResource } from '@tally/runtime';
import type { Commitment, PauseBehavior, ProrationItem, SubscriptionEvent, SubscriptionRefund, SubscriptionStatus } from './domain/subscription.events';

export interface SubscriptionResource extends StampedResource {
  object: 'subscription';
  customer_id: string;
  plan_code: string;
  status: SubscriptionStatus;
  currency: string;
  default_payment_method_id: string | null;
  trial_end: string | null;
  /** The trial that applied, in days: the subscription's own, else the plan's; 0 without one. */
  trial_days: number;
  billing_cycle_anchor: string;
  current_period_start: string;
  current_period_end: string;
  quantities: Record<string, number>;
  coupons: string[];
  metadata: Record<string, string>;
  paused_until: string | null;
  pause_behavior: PauseBehavior | null;
  /** Set by a cancellation at period end: when the subscription will be canceled. */
  cancel_at: string | null;
  canceled_at: string | null;
  cancellation_reason: string | null;
  ended_at: string | null;
  commitment: Commitment | null;
  /** When the commitment's current term ends (computed at activation and at each renewal of the term). */
  commitment_end_at: string | null;
  /** Changes that take effect at the next period boundary (`proration_behavior: none`, quantities `next_period`). */
  pending_update: { plan_code: string | null; quantities: Record<string, number>; effective_at: string } | null;
  /** Prorations waiting for the next invoice. */
  pending_prorations: ProrationItem[];
  /** The sandbox test clock the subscription lives on (its customer's). */
  test_clock: string | null;
  /** The last credit note (or refund) that adjusted the revenue recognition of one of its invoices; null before any. */
  latest_refund: SubscriptionRefund | null;
}

/** The subscription as the API shows it, folded from its events. */
export const subscriptionView = defineView<SubscriptionResource, SubscriptionEvent, 'SubscriptionCreated'>({
  object: 'subscription',
  created: {
    type: 'SubscriptionCreated',
    fields: (data, event) => {
      const { subscription_id: _id, period_start, period_end, cadence: _cadence, prorate_first_period: _prorate, commitment, ...fields } = data;
      return {
        ...fields,
        quantities: keyedObject(Object.entries(fields.quantities)),
        coupons: [...fields.coupons],
        trial_days: trialDays(data),
        current_period_start: period_start,
        current_period_end: period_end,
        paused_until: null,
        pause_behavior: null,
        cancel_at: null,
        canceled_at: null,
        cancellation_reason: null,
        ended_at: null,
        commitment,
        commitment_end_at: null,
        pending_update: null,
        pending_prorations: [],
        test_clock: event.metadata.clock_id ?? null,
        latest_refund: null,
      };
    },
  },
  changes: {
    SubscriptionActivated: (_subscription, period) => ({ ...newPeriod(period), status: 'active' }),
    SubscriptionRenewed: (_subscription, period) => newPeriod(period),
    SubscriptionTrialWillEnd: 'unchanged',
    SubscriptionCommitmentEnding: 'unchanged',
    SubscriptionFirstInvoicePaid: 'unchanged',
    SubscriptionUpdated: (_subscription, { metadata, default_payment_method_id }) => ({
      ...(metadata !== undefined && { metadata }),
      ...(default_payment_method_id !== undefined && { default_payment_method_id }),
    }),
    SubscriptionPlanChanged: (subscription, { plan_code, invoice_now, prorations }) => ({
      plan_code,
      pending_update: withoutScheduled(subscription.pending_update, { plan: true }),
      pending_prorations: invoice_now ? subscription.pending_prorations : [...subscription.pending_prorations, ...prorations],
    }),
    SubscriptionPlanChangeScheduled: (subscription, { plan_code }) => ({ pending_update: { ...pendingUpdate(subscription), plan_code } }),
    SubscriptionQuantityChanged: (subscription, { meter, quantity, prorations }) => ({
      quantities: keyedObject([...Object.entries(subscription.quantities), [meter, quantity]]),
      pending_update: withoutScheduled(subscription.pending_update, { meter }),
      pending_prorations: [...subscription.pending_prorations, ...prorations],
    }),
    SubscriptionQuantityScheduled: (subscription, { meter, quantity }) => {
      const pending = pendingUpdate(subscription);
      return { pending_update: { ...pending, quantities: keyedObject([...Object.entries(pending.quantities), [meter, quantity]]) } };
    },
    SubscriptionEnded: (_subscription, { ended_at }) => ({ status: 'ended', ended_at, pending_prorations: [] }),
    SubscriptionPaused: (_subscription, { until, behavior }) => ({ status: 'paused', paused_until: until, pause_behavior: behavior }),
    SubscriptionResumed: () => ({ status: 'active', paused_until: null, pause_behavior: null }),
    SubscriptionCancellationScheduled: (_subscription, { cancel_at, reason }) => ({ cancel_at, cancellation_reason: reason }),
    SubscriptionCanceled: (subscription, { canceled_at, reason }) => ({
      status: 'canceled',
      canceled_at,
      cancellation_reason: reason ?? subscription.cancellation_reason,
      pending_prorations: [],
    }),
    SubscriptionPastDue: () => ({ status: 'past_due' }),
    SubscriptionRecovered: () => ({ status: 'active' }),
    SubscriptionAwaitingPayment: 'unchanged',
    SubscriptionIncompleteExpired: () => ({ status: 'incomplete_expired' }),
    SubscriptionRefundProcessed: (_subscription, { subscription_id: _id, ...refund }) => ({ latest_refund: refund }),
  },
  publicTypes: {
    SubscriptionCreated: 'subscription.created',
    // Consumers grant access on `subscription.activated`: a subscription created active announces it once its first invoice is paid.
    SubscriptionActivated: { type: 'subscription.activated', when: (event) => !event.data.first_payment_pending },
    SubscriptionFirstInvoicePaid: 'subscription.activated',
    SubscriptionRecovered: 'subscription.activated',
    SubscriptionRenewed: undefined,
    SubscriptionTrialWillEnd: 'subscription.trial_will_end',
    SubscriptionUpdated: 'subscription.updated',
    SubscriptionPlanChanged: 'subscription.updated',
    SubscriptionPlanChangeScheduled: 'subscription.updated',
    SubscriptionQuantityChanged: 'subscription.updated',
    SubscriptionQuantityScheduled: 'subscription.quantity_scheduled',
    SubscriptionCommitmentEnding: 'subscription.commitment_ending',
    // The spec names no event for `ended`: the status change is an update, as Stripe's end of a schedule is.
    SubscriptionEnded: 'subscription.updated',
    SubscriptionPaused: 'subscription.paused',
    SubscriptionResumed: 'subscription.resumed',
    SubscriptionCancellationScheduled: 'subscription.updated',
    SubscriptionCanceled: 'subscription.canceled',
    SubscriptionPastDue: 'subscription.past_due',
    // Internal: `subscription.created` announced the wait; its invoice announces itself.
    SubscriptionAwaitingPayment: undefined,
    // The spec names no event for `incomplete_expired`: the status change is an update.
    SubscriptionIncompleteExpired: 'subscription.updated',
    SubscriptionRefundProcessed: 'subscription.refund_processed',
  },
});

/** A period begun (by the activation or a renewal): its dates and the terms it runs on; what was pending for it is done. */
const newPeriod = ({ period_start, period_end, terms, commitment_end }: { period_start: string; period_end: string; terms: { plan_code: string; quantities: Record<string, number> }; commitment_end: string | null }): Partial<SubscriptionResource> => ({
  current_period_start: period_start,
  current_period_end: period_end,
  plan_code: terms.plan_code,
  quantities: keyedObject(Object.entries(terms.quantities)),
  commitment_end_at: commitment_end,
  pending_update: null,
  pending_prorations: [],
});

/** A trial is the first period and lasts whole days from the creation, so its days are its length. */
const trialDays = ({ trial_end, period_start }: { trial_end: string | null; period_start: string }): number =>
  trial_end === null ? 0 : Math.round((Date.parse(trial_end) - Date.parse(period_start)) / DAY_MS);

/** The pending update, or an empty one that takes effect when the current period ends. */
const pendingUpdate = (subscription: SubscriptionResource): NonNullable<SubscriptionResource['pending_update']> =>
  subscription.pending_update ?? { plan_code: null, quantities: keyedObject(), effective_at: subscription.current_period_end };

/** A change made now replaces the one scheduled for the same plan or meter: the pending update without it, or null when nothing is left. */
function withoutScheduled(pending: SubscriptionResource['pending_update'], replaced: { plan: true } | { meter: string }): SubscriptionResource['pending_update'] {
  if (pending === null) return null;
  const plan_code = 'plan' in replaced ? null : pending.plan_code;
  const quantities = keyedObject(Object.entries(pending.quantities).filter(([meter]) => !('meter' in replaced) || meter !== replaced.meter));
  return plan_code === null && Object.keys(quantities).length === 0 ? null : { ...pending, plan_code, quantities };
}
